import type { PrismTheme } from 'prism-react-renderer';

type Rgb = [number, number, number];

function parse(color: string): Rgb {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex?.[1]) {
    const value = Number.parseInt(hex[1], 16);
    return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  }
  const rgb = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(color);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`Cannot read the colour ${color}`);
}

const hex = (rgb: Rgb) => `#${rgb.map((part) => Math.round(part).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
function luminance(rgb: Rgb): number {
  const [r = 0, g = 0, b = 0] = rgb.map((part) => {
    const channel = part / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(parse(a)), luminance(parse(b))].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The colour moved towards black (on a light background) or white (on a dark one) until it reaches `minimum`. */
export function readableOn(color: string, background: string, minimum: number): string {
  if (contrast(color, background) >= minimum) return color;
  const start = parse(color);
  const target: Rgb = luminance(parse(background)) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 1; step <= 100; step++) {
    const mixed = start.map((part, index) => part + ((target[index] ?? 0) - part) * (step / 100)) as Rgb;
    if (contrast(hex(mixed), background) >= minimum) return hex(mixed);
  }
  return hex(target);
}

/**
 * A Prism theme whose every token colour reads at `minimum` contrast against the theme's background (WCAG AA is
 * 4.5:1 for code-sized text): the popular themes keep comments and constants faint (GitHub's #36acaa is 2.6:1,
 * Dracula's comments 3:1). Hues stay; only lightness moves. A token drawn by opacity gets a solid colour instead.
 */
export function readablePrismTheme(theme: PrismTheme, minimum = 4.6): PrismTheme {
  const background = theme.plain.backgroundColor ?? '#ffffff';
  const plainColor = theme.plain.color ?? '#000000';
  return {
    plain: { ...theme.plain, color: readableOn(plainColor, background, minimum) },
    styles: theme.styles.map(({ types, languages, style }) => {
      const { opacity: _opacity, ...rest } = style;
      const color = style.color ?? plainColor;
      return { types, languages, style: { ...rest, color: readableOn(color, background, minimum) } };
    }),
  };
}
