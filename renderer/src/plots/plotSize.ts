/**
 * How tall each uPlot chart is, from the height the plots body has (px), so that a row of plot cards fits
 * the bottom area the user sized instead of being cut: a card is its title, the chart (axes included) and,
 * when there is room, the live legend (series names and the values under the cursor). When space is short
 * the legend goes first, so the chart itself does not shrink below 80 px while a legend is still drawn.
 */
/** .plots-body padding (6 + 6), a card's padding and border (2 + 2 + 1 + 1), its title row, the legend row. */
export const BODY_PADDING = 12;
export const CARD_CHROME = 6;
export const TITLE_HEIGHT = 19;
export const LEGEND_HEIGHT = 22;
export const MIN_CHART = 48;
export const MAX_CHART = 160;
/** With the legend, the chart keeps at least this height; below, the legend is dropped first. */
export const LEGEND_MIN_CHART = 80;

export function plotChartSize(bodyHeight: number): { height: number; legend: boolean } {
  const room = bodyHeight - BODY_PADDING - CARD_CHROME - TITLE_HEIGHT;
  if (room - LEGEND_HEIGHT >= LEGEND_MIN_CHART) return { height: Math.min(MAX_CHART, Math.floor(room - LEGEND_HEIGHT)), legend: true };
  return { height: Math.max(MIN_CHART, Math.floor(room)), legend: false };
}
