import type uPlot from 'uplot';

/** A day to mark on a time chart, e.g. the day an engine answered with a new model. */
export interface ChartMarker {
  date: string;
  /** Short text drawn beside the line and listed in the tooltip of that day. */
  label: string;
}

/**
 * Draws each marker as a dashed vertical line at its day, with a small tag at the top, on
 * the chart's canvas (a day outside the axis is not drawn). Markers on the same day share
 * one line.
 */
export function markersPlugin(markers: ChartMarker[], color: string): uPlot.Plugin {
  const byDate = new Map<string, string[]>();
  for (const marker of markers) byDate.set(marker.date, [...(byDate.get(marker.date) ?? []), marker.label]);
  return {
    hooks: {
      draw: [
        (plot) => {
          const context = plot.ctx;
          const { top, height, left, width } = plot.bbox;
          const ratio = window.devicePixelRatio || 1;
          context.save();
          context.strokeStyle = color;
          context.fillStyle = color;
          context.lineWidth = ratio;
          context.setLineDash([4 * ratio, 3 * ratio]);
          context.font = `${11 * ratio}px "Inter Variable", system-ui, sans-serif`;
          context.textBaseline = 'top';
          for (const date of byDate.keys()) {
            const x = Math.round(plot.valToPos(Date.parse(`${date}T00:00:00Z`) / 1000, 'x', true));
            if (x < left || x > left + width) continue;
            context.beginPath();
            context.moveTo(x, top);
            context.lineTo(x, top + height);
            context.stroke();
            const tag = 'model';
            const tagWidth = context.measureText(tag).width;
            const flip = x + 4 * ratio + tagWidth > left + width;
            context.fillText(tag, flip ? x - 4 * ratio - tagWidth : x + 4 * ratio, top + 2 * ratio);
          }
          context.restore();
        },
      ],
    },
  };
}

/** The markers' labels of one day, for the tooltip. */
export function markerLabels(markers: ChartMarker[], date: string): string[] {
  return markers.filter((marker) => marker.date === date).map((marker) => marker.label);
}
