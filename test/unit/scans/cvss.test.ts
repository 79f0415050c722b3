import { describe, expect, it } from 'vitest';
import { cvssBaseScore, InvalidCvssVectorError, normaliseCvssVector } from '#shared/scans/cvss';
import { severityOfScore } from '#shared/scans/cvss-rating';

describe('cvssBaseScore', () => {
  // Scores as given by FIRST's CVSS v3.1 specification examples and calculator.
  it.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', 3.7],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10],
    ['CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', 7.8],
    ['CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N', 6.4],
    ['CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 4.6],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0],
  ])('scores %s as %d', (vector, expected) => {
    expect(cvssBaseScore(vector)).toBe(expected);
  });

  it('adds the CVSS:3.1 prefix when normalising', () => {
    expect(normaliseCvssVector('AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H');
  });

  it.each(['', 'garbage', 'CVSS:3.1/AV:N/AC:L', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/XX:Y', 'CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'CVSS:3.1/AV:Q/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'])(
    'rejects %j',
    (vector) => {
      expect(() => cvssBaseScore(vector)).toThrow(InvalidCvssVectorError);
    },
  );

  it('maps scores to FIRST qualitative ratings', () => {
    expect([0, 0.1, 3.9, 4, 6.9, 7, 8.9, 9, 10].map(severityOfScore)).toEqual(['info', 'low', 'low', 'medium', 'medium', 'high', 'high', 'critical', 'critical']);
  });
});
