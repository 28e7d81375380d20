export interface Station {
  id: string;
  name: string;
  datumCm: number; // chart datum offset
}

export const STATIONS: Station[] = [
  { id: 'HBR-01', name: 'North Pier', datumCm: 212 },
  { id: 'HBR-02', name: 'Ferry Slip', datumCm: 198 },
];
