"""A chart of the review (plotext, through textual-plotext), loaded only when the charts tab is first shown: the
review's first frame does not wait for plotext."""

from __future__ import annotations

from textual.app import RenderResult
from textual_plotext import PlotextPlot


def chart_title(title: str, width: int, ticks: int) -> str:
    """``title`` as a chart ``width`` columns wide with money ticks ``ticks`` characters long can show it: plotext
    centres it over the plot beside the ticks and leaves out one that does not fit there (the Russian net worth's at
    80 columns: no title at all); then its words in brackets go ("Состояние после каждого действия")."""
    if len(title) <= width - ticks - 4 or " (" not in title:
        return title
    return title.split(" (")[0]


class ChartPlot(PlotextPlot):
    """A plot whose title is fitted to its width as it is drawn (:func:`chart_title`): the width is the one it has
    then, not the one it had when its data were given (on a busy machine, before the tab's layout settled)."""

    #: the whole title, and how long its money ticks' labels are (0: the title as it is)
    full_title = ""
    ticks = 0

    def render(self) -> RenderResult:
        if self.full_title:
            self.plt.title(chart_title(self.full_title, self.size.width, self.ticks) if self.ticks else self.full_title)
        return super().render()
