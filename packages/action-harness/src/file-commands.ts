/**
 * The runner's file commands: `GITHUB_OUTPUT` and `GITHUB_STATE` hold `name=value` lines or the
 * multi-line form `name<<DELIMITER`, the value's lines, then the delimiter alone on a line.
 */
export function parseKeyValueFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line === '') continue;
    const heredoc = line.indexOf('<<');
    const equals = line.indexOf('=');
    if (heredoc > 0 && (equals < 0 || heredoc < equals)) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      const value: string[] = [];
      index += 1;
      while (index < lines.length && lines[index] !== delimiter) value.push(lines[index++] as string);
      if (index >= lines.length)
        throw new Error(`file command for "${name}": delimiter ${delimiter} never closes`);
      out[name] = value.join('\n');
    } else if (equals > 0) {
      out[line.slice(0, equals)] = line.slice(equals + 1);
    } else {
      throw new Error(`file command line is neither name=value nor name<<DELIMITER: ${JSON.stringify(line)}`);
    }
  }
  return out;
}
