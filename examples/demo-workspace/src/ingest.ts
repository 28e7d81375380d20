export interface Reading {
  station: string;
  at: Date; // UTC
  levelCm: number;
}

/** Parse one station CSV (`station,timestamp,level_cm`), skipping the header and blank lines. */
export function parseCsv(text: string): Reading[] {
  return text
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [station, ts, level] = l.split(',');
      return { station, at: new Date(ts), levelCm: Number(level) };
    });
}
