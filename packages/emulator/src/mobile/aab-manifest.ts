/**
 * The protobuf AndroidManifest.xml of an Android App Bundle (`base/manifest/AndroidManifest.xml`),
 * aapt2's XmlNode message from Resources.proto. Only the fields the emulator reads are declared;
 * protobufjs skips the others.
 */
import protobuf from 'protobufjs';

const root = protobuf.Root.fromJSON({
  nested: {
    aapt: {
      nested: {
        XmlNode: {
          oneofs: { node: { oneof: ['element', 'text'] } },
          fields: { element: { type: 'XmlElement', id: 1 }, text: { type: 'string', id: 2 } },
        },
        XmlElement: {
          fields: {
            namespaceUri: { type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            attribute: { rule: 'repeated', type: 'XmlAttribute', id: 4 },
            child: { rule: 'repeated', type: 'XmlNode', id: 5 },
          },
        },
        XmlAttribute: {
          fields: {
            namespaceUri: { type: 'string', id: 1 },
            name: { type: 'string', id: 2 },
            value: { type: 'string', id: 3 },
            resourceId: { type: 'uint32', id: 5 },
            compiledItem: { type: 'Item', id: 6 },
          },
        },
        Item: {
          fields: { str: { type: 'String', id: 2 }, prim: { type: 'Primitive', id: 7 } },
        },
        String: { fields: { value: { type: 'string', id: 1 } } },
        Primitive: { fields: { intDecimalValue: { type: 'int32', id: 6 } } },
      },
    },
  },
});

const XmlNode = root.lookupType('aapt.XmlNode');

interface ProtoAttribute {
  namespaceUri?: string;
  name: string;
  value?: string;
  resourceId?: number;
  compiledItem?: { str?: { value: string }; prim?: { intDecimalValue: number } };
}

interface ProtoElement {
  namespaceUri?: string;
  name: string;
  attribute?: ProtoAttribute[];
  child?: { element?: ProtoElement; text?: string }[];
}

export function encodeProtoManifest(element: ProtoElement): Buffer {
  return Buffer.from(XmlNode.encode(XmlNode.fromObject({ element })).finish());
}

export function decodeProtoManifest(bytes: Buffer): ProtoElement {
  const node = XmlNode.toObject(XmlNode.decode(bytes), { defaults: false }) as { element?: ProtoElement };
  if (!node.element?.name) throw new Error('not a protobuf manifest');
  return node.element;
}

/** An attribute's value: its source text, else its compiled string or integer. */
export function attributeValue(element: ProtoElement | undefined, name: string): string | undefined {
  const attr = element?.attribute?.find((candidate) => candidate.name === name);
  if (!attr) return undefined;
  if (attr.value) return attr.value;
  if (attr.compiledItem?.str?.value) return attr.compiledItem.str.value;
  const int = attr.compiledItem?.prim?.intDecimalValue;
  return int === undefined ? undefined : String(int);
}
