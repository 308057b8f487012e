// Player colours from the Okabe–Ito palette, distinguishable with the
// common colour-vision deficiencies; each seat also has a letter mark so
// colour is never the only cue.

const NAMED: Record<string, string> = {
  RED: '#D55E00', BLUE: '#0072B2', GREEN: '#009E73', YELLOW: '#F0E442', BLACK: '#000000',
  GRAY: '#999999', GREY: '#999999', PINK: '#CC79A7', ORANGE: '#E69F00', SKY: '#56B4E9', PURPLE: '#CC79A7',
};
const BY_SEAT = ['#D55E00', '#0072B2', '#009E73', '#E69F00', '#CC79A7', '#56B4E9'];

export function playerColour(name: string, seat: number): string {
  return NAMED[name.toUpperCase()] ?? BY_SEAT[seat % BY_SEAT.length] ?? '#000000';
}

export function playerMark(seat: number): string {
  return String.fromCharCode(65 + (seat % 26));
}
