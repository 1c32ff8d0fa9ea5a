/** The plot charts fit the height the bottom area leaves them: a whole card per row, legend dropped first. */
import { describe, expect, it } from 'vitest';
import { BODY_PADDING, CARD_CHROME, LEGEND_HEIGHT, LEGEND_MIN_CHART, MAX_CHART, MIN_CHART, TITLE_HEIGHT, plotChartSize } from '../../../renderer/src/plots/plotSize';

const card = (s: { height: number; legend: boolean }) => BODY_PADDING + CARD_CHROME + TITLE_HEIGHT + s.height + (s.legend ? LEGEND_HEIGHT : 0);

describe('plotChartSize', () => {
  it('a card fits the body whenever the body can hold the smallest chart', () => {
    for (let h = BODY_PADDING + CARD_CHROME + TITLE_HEIGHT + MIN_CHART; h <= 600; h += 7) {
      const s = plotChartSize(h);
      expect(card(s), `body ${h} px`).toBeLessThanOrEqual(h);
      expect(s.height).toBeGreaterThanOrEqual(MIN_CHART);
      expect(s.height).toBeLessThanOrEqual(MAX_CHART);
      // With a legend the chart is never squeezed below its threshold.
      if (s.legend) expect(s.height).toBeGreaterThanOrEqual(LEGEND_MIN_CHART);
    }
  });

  it('the default 1280×720 bottom area (≈100 px of plots body) shows whole charts without legends; 200 px has legends', () => {
    expect(plotChartSize(100)).toEqual({ height: 100 - BODY_PADDING - CARD_CHROME - TITLE_HEIGHT, legend: false });
    expect(plotChartSize(200).legend).toBe(true);
    // More room than a big chart needs: capped, so a second row stays near.
    expect(plotChartSize(1000).height).toBe(MAX_CHART);
  });
});
