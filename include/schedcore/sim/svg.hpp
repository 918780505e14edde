/// @file
/// @brief HOSTED. A small, dependency-free SVG chart writer: line and step charts (linear or
/// log axes), grouped bar charts and timelines (rows of coloured spans), with axes, ticks,
/// labels and a legend.
///
/// Output is deterministic: the same chart gives the same bytes (fixed number formats, no
/// locale, no clock, no randomness). `render(true)` produces a standalone SVG document
/// (`xmlns`, XML-escaped text); `render(false)` an element to inline in HTML. Text is escaped
/// for XML (`&`, `<`, `>`, `"`, `'`). Coordinates are rounded to 0.1 px.
#ifndef SCHEDCORE_SIM_SVG_HPP
#define SCHEDCORE_SIM_SVG_HPP

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "schedcore/sim/output_file.hpp"

namespace schedcore {
namespace sim {
namespace svg {

/// XML-escapes `s`.
inline std::string escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') o += c;
    }
  }
  return o;
}

/// `v` with `decimals` decimals, trailing zeros (and a trailing '.') removed; "-0" becomes "0".
inline std::string num(double v, int decimals = 1) {
  if (!std::isfinite(v)) v = 0;
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  std::string s = b;
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

/// A tick label: compact, with k/M suffixes for large values and enough decimals for small ones.
inline std::string tick_label(double v) {
  const double a = std::fabs(v);
  if (a >= 1e6 && std::fmod(a, 1e5) == 0) return num(v / 1e6, 1) + "M";
  if (a >= 1e4 && std::fmod(a, 100) == 0) return num(v / 1e3, 1) + "k";
  if (a == 0) return "0";
  if (a >= 1) return num(v, 2);
  if (a >= 0.01) return num(v, 3);
  return num(v, 6);
}

/// The default palette (colour-blind-friendly first ten, then more), indexed modulo its size.
inline const std::vector<std::string>& palette() {
  static const std::vector<std::string> p = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
      "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79"};
  return p;
}
/// Colour number `i` of the palette.
inline std::string color(std::size_t i) { return palette()[i % palette().size()]; }

/// One axis.
struct axis {
  std::string label;      ///< axis title (with its unit)
  bool log = false;       ///< logarithmic (base 10); values <= 0 are drawn at the axis's lower bound (and left out when it is computed)
  bool has_min = false;   ///< `min` given (else from the data)
  bool has_max = false;   ///< `max` given (else from the data)
  double min = 0;         ///< lower bound when `has_min`
  double max = 0;         ///< upper bound when `has_max`
  bool zero = true;       ///< linear axis: include 0 in the range

  /// Sets both bounds.
  axis& range(double lo, double hi) {
    min = lo;
    max = hi;
    has_min = has_max = true;
    return *this;
  }
};

/// One line of a line chart.
struct series {
  std::string name;                              ///< legend text (empty: not in the legend)
  std::vector<std::pair<double, double>> points; ///< (x, y), in drawing order
  std::string color;                             ///< stroke colour, empty = palette by index
  bool step = false;                             ///< draw as a step function (horizontal then vertical)
  bool dashed = false;                           ///< dashed stroke (reference lines)
  bool markers = false;                          ///< a dot at every point
  double width = 1.8;                            ///< stroke width, px
};

/// @cond INTERNAL
namespace detail {
struct scale {
  double lo = 0, hi = 1;
  bool log = false;
  double px0 = 0, px1 = 1;  // screen range
  double t(double v) const {
    double a, b, x;
    if (log) {
      a = std::log10(lo);
      b = std::log10(hi);
      x = std::log10(std::max(v, lo));
    } else {
      a = lo;
      b = hi;
      x = v;
    }
    if (b == a) return (px0 + px1) / 2;
    return px0 + (x - a) / (b - a) * (px1 - px0);
  }
};

/// A "nice" step (1, 2 or 5 x 10^k) giving about `n` intervals over `span`.
inline double nice_step(double span, int n) {
  if (span <= 0) return 1;
  const double raw = span / n;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  const double s = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return s * mag;
}

/// Data range -> scale bounds and tick values.
inline std::vector<double> ticks(const axis& ax, double dlo, double dhi, scale& sc, int n) {
  std::vector<double> out;
  sc.log = ax.log;
  if (ax.log) {
    double lo = ax.has_min ? ax.min : dlo, hi = ax.has_max ? ax.max : dhi;
    if (!(lo > 0)) lo = hi > 0 ? hi / 1000 : 1;
    if (!(hi > lo)) hi = lo * 10;
    lo = ax.has_min ? lo : std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
    hi = ax.has_max ? hi : std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
    if (hi <= lo) hi = lo * 10;
    sc.lo = lo;
    sc.hi = hi;
    const int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9)), d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    const bool fine = d1 - d0 <= 2;  // few decades: 1, 2, 5 ticks
    for (int d = d0; d <= d1; ++d)
      for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        const double v = m * std::pow(10.0, d);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
      }
    return out;
  }
  double lo = ax.has_min ? ax.min : dlo, hi = ax.has_max ? ax.max : dhi;
  if (ax.zero && !ax.has_min && lo > 0) lo = 0;
  if (ax.zero && !ax.has_max && hi < 0) hi = 0;
  if (!(hi > lo)) {
    hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
  }
  const double st = nice_step(hi - lo, n);
  if (!ax.has_min) lo = std::floor(lo / st + 1e-9) * st;
  if (!ax.has_max) hi = std::ceil(hi / st - 1e-9) * st;
  sc.lo = lo;
  sc.hi = hi;
  const double first = std::ceil(lo / st - 1e-9) * st;
  for (int i = 0; i < 1000; ++i) {
    const double v = first + i * st;
    if (v > hi + st * 1e-6) break;
    out.push_back(std::fabs(v) < st * 1e-9 ? 0.0 : v);
  }
  return out;
}

inline std::string text(double x, double y, const std::string& s, const char* anchor, const char* extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" + escape(s) +
         "</text>\n";
}

inline std::string open_svg(int w, int h, bool standalone, const std::string& title) {
  std::string o = "<svg ";
  if (standalone) o += "xmlns=\"http://www.w3.org/2000/svg\" ";
  o += "width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(w) +
       " " + std::to_string(h) +
       "\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-size=\"12\" class=\"chart\" role=\"img\">\n";
  o += "<title>" + escape(title) + "</title>\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" fill=\"#ffffff\"/>\n";
  return o;
}

/// Approximate width of `s` in px at 12 px DejaVu Sans.
inline double text_width(const std::string& s) { return 7.0 * static_cast<double>(s.size()); }
}  // namespace detail
/// @endcond

/// Legend entry (name + colour), used by every chart kind.
struct legend_entry {
  std::string name;   ///< text
  std::string color;  ///< swatch colour
  bool dashed = false;  ///< drawn as a dashed line swatch
};

/// @cond INTERNAL
namespace detail {
/// Legend on the right of the plot area, starting at (x, y); one entry per line.
inline std::string legend(const std::vector<legend_entry>& es, double x, double y) {
  std::string o = "<g class=\"legend\">\n";
  for (std::size_t i = 0; i < es.size(); ++i) {
    const double yy = y + 18.0 * static_cast<double>(i);
    o += "<line x1=\"" + num(x) + "\" y1=\"" + num(yy - 4) + "\" x2=\"" + num(x + 18) + "\" y2=\"" + num(yy - 4) +
         "\" stroke=\"" + es[i].color + "\" stroke-width=\"3\"" + (es[i].dashed ? " stroke-dasharray=\"5 3\"" : "") +
         "/>\n";
    o += text(x + 24, yy, es[i].name, "start");
  }
  return o + "</g>\n";
}
inline double legend_width(const std::vector<legend_entry>& es) {
  double w = 0;
  for (const auto& e : es) w = std::max(w, detail::text_width(e.name));
  return es.empty() ? 0 : w + 40;
}
}  // namespace detail
/// @endcond

/// A line / step chart.
struct chart {
  std::string title;              ///< drawn at the top
  std::string subtitle;           ///< smaller, under the title (may be empty)
  axis x;                         ///< horizontal axis
  axis y;                         ///< vertical axis
  std::vector<series> lines;      ///< drawn in order
  int width = 980;                ///< px
  int height = 420;               ///< px
  bool legend = true;             ///< draw the legend (right side)

  /// The chart as SVG text.
  std::string render(bool standalone = true) const {
    std::vector<legend_entry> les;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (!lines[i].name.empty()) les.push_back({lines[i].name, col(i), lines[i].dashed});
    const double lw = legend ? detail::legend_width(les) : 0;
    const double left = 70, top = subtitle.empty() ? 40 : 56, bottom = 50;
    const double right = 20 + lw;
    const double pw = std::max(100.0, width - left - right), ph = std::max(60.0, height - top - bottom);
    double xlo = 0, xhi = 0, ylo = 0, yhi = 0;
    bool any = false;
    for (const auto& s : lines)
      for (const auto& p : s.points) {
        if (x.log && !(p.first > 0)) continue;
        if (y.log && !(p.second > 0)) continue;
        if (!std::isfinite(p.first) || !std::isfinite(p.second)) continue;
        if (!any) {
          xlo = xhi = p.first;
          ylo = yhi = p.second;
          any = true;
        }
        xlo = std::min(xlo, p.first);
        xhi = std::max(xhi, p.first);
        ylo = std::min(ylo, p.second);
        yhi = std::max(yhi, p.second);
      }
    detail::scale sx, sy;
    const auto xt = detail::ticks(x, xlo, xhi, sx, 8);
    const auto yt = detail::ticks(y, ylo, yhi, sy, 6);
    sx.px0 = left;
    sx.px1 = left + pw;
    sy.px0 = top + ph;
    sy.px1 = top;
    std::string o = detail::open_svg(width, height, standalone, title);
    o += detail::text(left, 22, title, "start", " font-size=\"15\" font-weight=\"bold\"");
    if (!subtitle.empty()) o += detail::text(left, 40, subtitle, "start", " font-size=\"11\" fill=\"#555\"");
    // grid and ticks
    o += "<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\">\n";
    for (double v : yt) {
      const double yy = sy.t(v);
      o += "<line x1=\"" + num(left) + "\" y1=\"" + num(yy) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(yy) + "\"/>\n";
    }
    for (double v : xt) {
      const double xx = sx.t(v);
      o += "<line x1=\"" + num(xx) + "\" y1=\"" + num(top) + "\" x2=\"" + num(xx) + "\" y2=\"" + num(top + ph) + "\"/>\n";
    }
    o += "</g>\n<g class=\"ticks\" fill=\"#333\">\n";
    for (double v : yt) o += detail::text(left - 6, sy.t(v) + 4, tick_label(v), "end");
    for (double v : xt) o += detail::text(sx.t(v), top + ph + 16, tick_label(v), "middle");
    o += "</g>\n";
    o += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) + "\" height=\"" + num(ph) +
         "\" fill=\"none\" stroke=\"#888\"/>\n";
    o += detail::text(left + pw / 2, top + ph + 38, x.label, "middle");
    o += "<text transform=\"translate(16," + num(top + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         escape(y.label) + "</text>\n";
    // data, clipped to the plot area
    o += "<g class=\"data\" fill=\"none\" stroke-linejoin=\"round\">\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const series& s = lines[i];
      std::string d;
      double px = 0, py = 0;
      bool first = true;
      for (const auto& p : s.points) {
        if (!std::isfinite(p.first) || !std::isfinite(p.second)) continue;
        const double cx = std::min(std::max(sx.t(p.first), left), left + pw);
        const double cy = std::min(std::max(sy.t(p.second), top), top + ph);
        if (first) {
          d += "M" + num(cx) + " " + num(cy);
          first = false;
        } else if (s.step) {
          d += "H" + num(cx) + "V" + num(cy);
        } else {
          d += "L" + num(cx) + " " + num(cy);
        }
        px = cx;
        py = cy;
      }
      if (d.empty()) continue;
      if (s.points.size() == 1) d += "h0.1";  // a single point still draws (with markers)
      o += "<path d=\"" + d + "\" stroke=\"" + col(i) + "\" stroke-width=\"" + num(s.width) + "\"" +
           (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "><title>" + escape(s.name) + "</title></path>\n";
      if (s.markers)
        for (const auto& p : s.points) {
          if (!std::isfinite(p.first) || !std::isfinite(p.second)) continue;
          const double cx = std::min(std::max(sx.t(p.first), left), left + pw);
          const double cy = std::min(std::max(sy.t(p.second), top), top + ph);
          o += "<circle cx=\"" + num(cx) + "\" cy=\"" + num(cy) + "\" r=\"3\" fill=\"" + col(i) + "\" stroke=\"none\"/>\n";
        }
      (void)px;
      (void)py;
    }
    o += "</g>\n";
    if (!any) o += detail::text(left + pw / 2, top + ph / 2, "no data", "middle", " fill=\"#999\"");
    if (legend && !les.empty()) o += detail::legend(les, left + pw + 16, top + 10);
    return o + "</svg>\n";
  }

 private:
  std::string col(std::size_t i) const { return lines[i].color.empty() ? color(i) : lines[i].color; }
};

/// A grouped bar chart: one group per category, one bar per series in each group.
struct bar_chart {
  std::string title;                        ///< drawn at the top
  std::string subtitle;                     ///< smaller, under the title
  std::vector<std::string> categories;      ///< group labels (x axis)
  /// Series: name and one value per category (missing values are not drawn).
  std::vector<std::pair<std::string, std::vector<double>>> bars;
  std::vector<std::string> colors;          ///< per series, empty = palette
  axis y;                                   ///< value axis (linear or log)
  int width = 980;                          ///< px
  int height = 360;                         ///< px
  bool value_labels = true;                 ///< print each bar's value above it

  /// The chart as SVG text.
  std::string render(bool standalone = true) const {
    std::vector<legend_entry> les;
    for (std::size_t i = 0; i < bars.size(); ++i) les.push_back({bars[i].first, col(i), false});
    const bool show_legend = bars.size() > 1;
    const double lw = show_legend ? detail::legend_width(les) : 0;
    // Long category labels are rotated.
    double maxlab = 0;
    for (const auto& c : categories) maxlab = std::max(maxlab, detail::text_width(c));
    const double ncat = static_cast<double>(std::max<std::size_t>(1, categories.size()));
    const double left = 70, top = subtitle.empty() ? 40 : 56, right = 20 + lw;
    const double pw0 = std::max(100.0, width - left - right);
    const bool rotate = maxlab > pw0 / ncat - 6;
    const double bottom = rotate ? std::min(140.0, maxlab * 0.72 + 30) : 44;
    const double pw = pw0, ph = std::max(60.0, height - top - bottom);
    double lo = 0, hi = 0;
    bool any = false;
    for (const auto& b : bars)
      for (double v : b.second) {
        if (!std::isfinite(v) || (y.log && !(v > 0))) continue;
        if (!any) lo = hi = v;
        any = true;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    detail::scale sy;
    const auto yt = detail::ticks(y, lo, hi, sy, 6);
    sy.px0 = top + ph;
    sy.px1 = top;
    std::string o = detail::open_svg(width, height, standalone, title);
    o += detail::text(left, 22, title, "start", " font-size=\"15\" font-weight=\"bold\"");
    if (!subtitle.empty()) o += detail::text(left, 40, subtitle, "start", " font-size=\"11\" fill=\"#555\"");
    o += "<g class=\"grid\" stroke=\"#e3e3e3\">\n";
    for (double v : yt)
      o += "<line x1=\"" + num(left) + "\" y1=\"" + num(sy.t(v)) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(sy.t(v)) +
           "\"/>\n";
    o += "</g>\n<g class=\"ticks\" fill=\"#333\">\n";
    for (double v : yt) o += detail::text(left - 6, sy.t(v) + 4, tick_label(v), "end");
    o += "</g>\n";
    o += "<text transform=\"translate(16," + num(top + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         escape(y.label) + "</text>\n";
    const double gw = pw / ncat;
    const double nb = static_cast<double>(std::max<std::size_t>(1, bars.size()));
    const double bw = gw * 0.8 / nb;
    const double base = y.log ? top + ph : sy.t(0);
    o += "<g class=\"bars\">\n";
    for (std::size_t c = 0; c < categories.size(); ++c) {
      const double gx = left + gw * static_cast<double>(c) + gw * 0.1;
      for (std::size_t s = 0; s < bars.size(); ++s) {
        if (c >= bars[s].second.size()) continue;
        const double v = bars[s].second[c];
        if (!std::isfinite(v) || (y.log && !(v > 0))) continue;
        const double yy = std::min(std::max(sy.t(v), top), top + ph);
        const double bx = gx + bw * static_cast<double>(s);
        const double y0 = std::min(yy, base), h = std::fabs(base - yy);
        o += "<rect x=\"" + num(bx) + "\" y=\"" + num(y0) + "\" width=\"" + num(std::max(bw - 1, 1.0)) + "\" height=\"" +
             num(h) + "\" fill=\"" + col(s) + "\"><title>" + escape(categories[c] + " " + bars[s].first + ": " +
             tick_label(v)) + "</title></rect>\n";
        if (value_labels && bw >= 18)
          o += detail::text(bx + bw / 2, y0 - 3, tick_label(std::round(v * 10) / 10), "middle", " font-size=\"10\" fill=\"#333\"");
      }
      const double cx = left + gw * (static_cast<double>(c) + 0.5);
      if (rotate)
        o += "<text transform=\"translate(" + num(cx + 4) + "," + num(top + ph + 10) +
             ") rotate(-40)\" text-anchor=\"end\">" + escape(categories[c]) + "</text>\n";
      else
        o += detail::text(cx, top + ph + 16, categories[c], "middle");
    }
    o += "</g>\n";
    o += "<line x1=\"" + num(left) + "\" y1=\"" + num(base) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(base) +
         "\" stroke=\"#888\"/>\n";
    if (show_legend) o += detail::legend(les, left + pw + 16, top + 10);
    return o + "</svg>\n";
  }

 private:
  std::string col(std::size_t i) const { return i < colors.size() && !colors[i].empty() ? colors[i] : color(i); }
};

/// A timeline: rows (e.g. CPUs) of coloured spans on a shared time axis.
struct timeline {
  /// One coloured span of a row.
  struct span {
    double start;       ///< x units (e.g. ms)
    double end;         ///< x units, > start
    std::size_t color;  ///< palette index
    std::string label;  ///< tooltip text
  };
  /// One row.
  struct row {
    std::string label;        ///< left of the row
    std::vector<span> spans;  ///< any order
  };
  std::string title;                  ///< drawn at the top
  std::string subtitle;               ///< smaller, under the title
  std::string x_label;                ///< time axis title
  double x0 = 0;                      ///< time axis start
  double x1 = 1;                      ///< time axis end
  std::vector<row> rows;              ///< top to bottom
  std::vector<std::pair<std::string, std::size_t>> legend;  ///< name, palette index (under the chart)
  int width = 1100;                   ///< px
  int row_height = 26;                ///< px per row

  /// The timeline as SVG text.
  std::string render(bool standalone = true) const {
    double maxlab = 0;
    for (const auto& r : rows) maxlab = std::max(maxlab, detail::text_width(r.label));
    const double left = std::max(70.0, maxlab + 16), right = 16, top = subtitle.empty() ? 34 : 50;
    const double pw = std::max(100.0, width - left - right);
    const double rh = row_height;
    const double ph = rh * static_cast<double>(rows.size());
    // legend flows left to right under the axis
    std::vector<std::pair<double, double>> pos;
    double lx = left, ly = top + ph + 46;
    for (const auto& e : legend) {
      const double w = detail::text_width(e.first) + 30;
      if (lx + w > width - right && lx > left) {
        lx = left;
        ly += 18;
      }
      pos.push_back({lx, ly});
      lx += w;
    }
    const int h = static_cast<int>(std::ceil(legend.empty() ? top + ph + 44 : ly + 12));
    std::string o = detail::open_svg(width, h, standalone, title);
    o += detail::text(left, 20, title, "start", " font-size=\"14\" font-weight=\"bold\"");
    if (!subtitle.empty()) o += detail::text(left, 36, subtitle, "start", " font-size=\"11\" fill=\"#555\"");
    detail::scale sx;
    axis ax;
    ax.range(x0, x1);
    const auto xt = detail::ticks(ax, x0, x1, sx, 10);
    sx.px0 = left;
    sx.px1 = left + pw;
    o += "<g class=\"grid\" stroke=\"#e3e3e3\">\n";
    for (double v : xt)
      o += "<line x1=\"" + num(sx.t(v)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(sx.t(v)) + "\" y2=\"" + num(top + ph) +
           "\"/>\n";
    o += "</g>\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const double ry = top + rh * static_cast<double>(r);
      o += "<rect x=\"" + num(left) + "\" y=\"" + num(ry + 2) + "\" width=\"" + num(pw) + "\" height=\"" + num(rh - 4) +
           "\" fill=\"#f4f4f4\"/>\n";
      o += detail::text(left - 8, ry + rh / 2 + 4, rows[r].label, "end");
      o += "<g class=\"spans\">\n";
      for (const auto& s : rows[r].spans) {
        const double a = std::max(sx.t(s.start), left), b = std::min(sx.t(s.end), left + pw);
        if (!(b > a)) continue;
        o += "<rect x=\"" + num(a) + "\" y=\"" + num(ry + 2) + "\" width=\"" + num(std::max(b - a, 0.1)) + "\" height=\"" +
             num(rh - 4) + "\" fill=\"" + color(s.color) + "\">";
        if (!s.label.empty()) o += "<title>" + escape(s.label) + "</title>";
        o += "</rect>\n";
      }
      o += "</g>\n";
    }
    o += "<g class=\"ticks\" fill=\"#333\">\n";
    for (double v : xt) o += detail::text(sx.t(v), top + ph + 14, tick_label(v), "middle");
    o += "</g>\n";
    o += detail::text(left + pw / 2, top + ph + 30, x_label, "middle");
    for (std::size_t i = 0; i < legend.size(); ++i) {
      o += "<rect x=\"" + num(pos[i].first) + "\" y=\"" + num(pos[i].second - 10) + "\" width=\"14\" height=\"12\" fill=\"" +
           color(legend[i].second) + "\"/>\n";
      o += detail::text(pos[i].first + 19, pos[i].second, legend[i].first, "start");
    }
    return o + "</svg>\n";
  }
};

/// Writes `text` to `path` with `write_output_file` (sim/output_file.hpp: atomically for a
/// regular file, nothing left behind on failure). Returns false on failure.
inline bool write_file_atomic(const std::string& path, const std::string& text) { return write_output_file(path, text); }

}  // namespace svg
}  // namespace sim
}  // namespace schedcore

#endif
