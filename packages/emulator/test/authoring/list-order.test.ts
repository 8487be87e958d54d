/** Lists are newest first by creation time as an instant: a seed's offsets do not order as text. */
import { describe, expect, it } from 'vitest';
import { filterCommon } from '../../src/authoring/filters.ts';

const item = (id: string, creationDate: string) => ({
  id,
  name: id,
  creationDate,
  creatorUserId: 'u',
  teamId: 't',
});

describe('the order of a list', () => {
  it('is by instant, whatever the form of the time, the unreadable last', () => {
    const items = [
      item('a', '2026-11-20T10:30:00+02:00'), // 08:30Z: sorts first as text, is the oldest readable
      item('b', '2026-11-20T09:00:00Z'),
      item('c', 'not a time'),
      item('d', '2026-11-20T09:15:00.000Z'),
    ];
    expect(filterCommon(items, {}).map((listed) => listed.id)).toEqual(['d', 'b', 'a', 'c']);
  });
});
