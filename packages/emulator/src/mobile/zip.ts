/** Reading a few small entries out of a (possibly large) zip without reading the rest. */
import yauzl from 'yauzl';

interface ZipContents {
  names: string[];
  /** Contents of the entries the caller picked. */
  entries: Map<string, Buffer>;
}

/** Entries this large are not metadata: reading one would only cost memory. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

export function readZip(file: string, pick: (name: string) => boolean): Promise<ZipContents> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve({ names, entries }));
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        if (!pick(entry.fileName) || entry.uncompressedSize > MAX_ENTRY_BYTES) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (data: Buffer) => chunks.push(data));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
