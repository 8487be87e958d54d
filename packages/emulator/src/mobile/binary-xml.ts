/**
 * Writes Android binary XML (the compiled AndroidManifest.xml inside an APK): an XML chunk that
 * holds a UTF-8 string pool, the resource map of the android: attribute names, and start/end
 * namespace and element chunks.
 */

export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';

/** Resource ids of the framework attributes the sample manifests use. */
const ANDROID_ATTR = {
  label: 0x01010001,
  icon: 0x01010002,
  name: 0x01010003,
  minSdkVersion: 0x0101020c,
  versionCode: 0x0101021b,
  versionName: 0x0101021c,
} as const;

interface XmlAttr {
  /** An android: attribute (with its resource id) or a plain one. */
  android: boolean;
  name: string;
  value: string | number;
}

interface XmlElement {
  name: string;
  attrs: XmlAttr[];
  children: XmlElement[];
}

const RES_XML_TYPE = 0x0003;
const RES_STRING_POOL_TYPE = 0x0001;
const RES_XML_RESOURCE_MAP_TYPE = 0x0180;
const RES_XML_START_NAMESPACE_TYPE = 0x0100;
const RES_XML_END_NAMESPACE_TYPE = 0x0101;
const RES_XML_START_ELEMENT_TYPE = 0x0102;
const RES_XML_END_ELEMENT_TYPE = 0x0103;
const UTF8_FLAG = 1 << 8;
const TYPE_STRING = 0x03;
const TYPE_INT_DEC = 0x10;
const NONE = 0xffffffff;

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
}

function chunk(type: number, headerSize: number, header: Buffer[], body: Buffer[]): Buffer {
  const rest = Buffer.concat([...header, ...body]);
  return Buffer.concat([u16(type), u16(headerSize), u32(8 + rest.length), rest]);
}

/** UTF-8 pool lengths: one byte below 0x80, else two with the high bit set. */
function utf8Length(length: number): Buffer {
  return length < 0x80 ? Buffer.from([length]) : Buffer.from([0x80 | (length >> 8), length & 0xff]);
}

function stringPool(strings: string[]): Buffer {
  const data: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const text of strings) {
    const bytes = Buffer.from(text, 'utf8');
    const encoded = Buffer.concat([
      utf8Length(text.length),
      utf8Length(bytes.length),
      bytes,
      Buffer.from([0]),
    ]);
    offsets.push(offset);
    offset += encoded.length;
    data.push(encoded);
  }
  const padding = (4 - (offset % 4)) % 4;
  data.push(Buffer.alloc(padding));
  const headerSize = 28;
  const stringsStart = headerSize + strings.length * 4;
  return chunk(
    RES_STRING_POOL_TYPE,
    headerSize,
    [u32(strings.length), u32(0), u32(UTF8_FLAG), u32(stringsStart), u32(0)],
    [...offsets.map(u32), ...data],
  );
}

function walk(element: XmlElement, visit: (element: XmlElement) => void): void {
  visit(element);
  for (const child of element.children) walk(child, visit);
}

/** Encodes a document whose root declares the android namespace. */
export function encodeBinaryXml(root: XmlElement): Buffer {
  // Attribute names with resource ids come first, in id order, as aapt lays them out.
  const resourceNames = new Set<string>();
  walk(root, (element) => {
    for (const attr of element.attrs) if (attr.android) resourceNames.add(attr.name);
  });
  const mapped = [...resourceNames].sort((a, b) => resourceId(a) - resourceId(b));
  const strings = [...mapped];
  const index = (text: string): number => {
    let at = strings.indexOf(text);
    if (at < 0) at = strings.push(text) - 1;
    return at;
  };
  const prefix = index('android');
  const uri = index(ANDROID_NS);

  const body: Buffer[] = [];
  const nodeHeader = [u32(1), u32(NONE)];
  body.push(chunk(RES_XML_START_NAMESPACE_TYPE, 16, nodeHeader, [u32(prefix), u32(uri)]));
  const emit = (element: XmlElement): void => {
    const attrs = element.attrs.map((attr) => {
      const ns = attr.android ? uri : NONE;
      const name = index(attr.name);
      if (typeof attr.value === 'number') {
        return Buffer.concat([
          u32(ns),
          u32(name),
          u32(NONE),
          u16(8),
          Buffer.from([0, TYPE_INT_DEC]),
          u32(attr.value),
        ]);
      }
      const value = index(attr.value);
      return Buffer.concat([
        u32(ns),
        u32(name),
        u32(value),
        u16(8),
        Buffer.from([0, TYPE_STRING]),
        u32(value),
      ]);
    });
    const name = index(element.name);
    body.push(
      chunk(RES_XML_START_ELEMENT_TYPE, 16, nodeHeader, [
        u32(NONE),
        u32(name),
        u16(20),
        u16(20),
        u16(attrs.length),
        u16(0),
        u16(0),
        u16(0),
        ...attrs,
      ]),
    );
    for (const child of element.children) emit(child);
    body.push(chunk(RES_XML_END_ELEMENT_TYPE, 16, nodeHeader, [u32(NONE), u32(name)]));
  };
  emit(root);
  body.push(chunk(RES_XML_END_NAMESPACE_TYPE, 16, nodeHeader, [u32(prefix), u32(uri)]));

  const pool = stringPool(strings);
  const resourceMap = chunk(
    RES_XML_RESOURCE_MAP_TYPE,
    8,
    [],
    mapped.map((name) => u32(resourceId(name))),
  );
  return chunk(RES_XML_TYPE, 8, [], [pool, resourceMap, ...body]);
}

function resourceId(name: string): number {
  const id = (ANDROID_ATTR as Record<string, number>)[name];
  if (id === undefined) throw new Error(`no resource id known for android:${name}`);
  return id;
}
