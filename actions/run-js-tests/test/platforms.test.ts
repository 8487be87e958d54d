import { InputError } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { parsePlatforms, platformName } from '../src/platforms.ts';

async function errorOf(text: string): Promise<InputError> {
  try {
    await parsePlatforms(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('platforms input', () => {
  it('reads lines of os / browser / version, skipping blanks and comments', async () => {
    expect(
      await parsePlatforms('Windows 11 / chrome / latest\n\n# mobile later\n  macOS 14 /safari/ 17.0  \n'),
    ).toEqual([
      ['Windows 11', 'chrome', 'latest'],
      ['macOS 14', 'safari', '17.0'],
    ]);
  });

  it('reads a YAML list of triples, keeping versions as written', async () => {
    expect(await parsePlatforms('- [Windows 10, firefox, 11.0]\n- ["Linux", chrome, 126]\n')).toEqual([
      ['Windows 10', 'firefox', '11.0'],
      ['Linux', 'chrome', '126'],
    ]);
    expect(await parsePlatforms('[[Windows 10, chrome, latest], [Linux, firefox, "115"]]')).toEqual([
      ['Windows 10', 'chrome', 'latest'],
      ['Linux', 'firefox', '115'],
    ]);
  });

  it('takes the line form as a YAML list item', async () => {
    expect(await parsePlatforms('- Windows 11 / edge / latest\n- - Linux\n  - chrome\n  - beta\n')).toEqual([
      ['Windows 11', 'edge', 'latest'],
      ['Linux', 'chrome', 'beta'],
    ]);
  });

  it('names the input and shows the bad line', async () => {
    const missing = await errorOf('Windows 11 / chrome / latest\nLinux / firefox\n');
    expect(missing.input).toBe('platforms');
    expect(missing.message).toContain('line 2 "Linux / firefox"');
    expect((await errorOf('Windows 11 / / latest')).message).toContain('line 1 "Windows 11 / / latest"');
    expect((await errorOf('- [Windows 11, chrome, latest]\n- [Linux, chrome]\n')).message).toContain(
      'line 2 "- [Linux, chrome]"',
    );
    expect((await errorOf('- [Windows 11, chrome, ""]')).message).toContain('line 1');
    expect((await errorOf('- {os: Linux}\n')).message).toContain('line 1 "- {os: Linux}"');
    expect((await errorOf('- [Windows 11, chrome, latest\n')).message).toMatch(
      /is not valid YAML at line \d/,
    );
    expect((await errorOf('  \n# nothing\n')).message).toContain('holds no platform');
  });

  it('names a platform for people', () => {
    expect(platformName(['Linux', 'chrome', 'latest'])).toBe('Linux / chrome / latest');
  });
});
