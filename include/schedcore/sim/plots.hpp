/// @file
/// @brief HOSTED. The simulator's plots and HTML report, built from run results with the SVG
/// writer of svg.hpp: latency CDFs, frames per second over time, CPU share per nice level,
/// knob sweeps (cs/s, makespan), pick-next cost against N from a Google Benchmark CSV, per-CPU
/// timelines read back from the ftrace text of trace.hpp, and a self-contained HTML page.
///
/// Everything here is deterministic: the same runs give the same bytes. Plots that need raw
/// samples (latency CDF, fps over time) need runs made with `run_config::keep_samples`.
#ifndef SCHEDCORE_SIM_PLOTS_HPP
#define SCHEDCORE_SIM_PLOTS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "schedcore/core/time.hpp"
#include "schedcore/sim/metrics.hpp"
#include "schedcore/sim/report.hpp"
#include "schedcore/sim/svg.hpp"
#include "schedcore/sim/workload.hpp"

namespace schedcore {
namespace sim {
namespace plots {

/// `s` with every character outside [A-Za-z0-9._-] replaced by '-' (file names).
inline std::string safe_name(const std::string& s) {
  std::string o = s;
  for (char& c : o)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
      c = '-';
  return o;
}

/// Latency CDF of every task's wakeup-to-run samples, one step line per run (policy). x: ms on
/// a log axis (samples below 1 us are drawn at 1 us), y: % of wakeups at or below x.
inline svg::chart latency_cdf(const std::vector<const run_result*>& runs, const std::string& workload) {
  svg::chart c;
  c.title = "Wakeup-to-run latency CDF: " + workload;
  c.subtitle = "every task's wakeups pooled; samples below 1 us drawn at 1 us";
  c.x.label = "latency (ms, log scale)";
  c.x.log = true;
  c.y.label = "% of wakeups <= latency";
  c.y.range(0, 100);
  double hi = 0.001;
  for (const run_result* r : runs) {
    std::vector<std::int64_t> v;
    for (const auto& t : r->tasks) v.insert(v.end(), t.latency_samples.begin(), t.latency_samples.end());
    std::sort(v.begin(), v.end());
    svg::series s;
    s.name = r->policy;
    s.step = true;
    const double n = static_cast<double>(v.size());
    double lastx = -1, lasty = -1;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i + 1 < v.size() && v[i + 1] == v[i]) continue;  // last index of a run of equal values
      const double x = std::max(static_cast<double>(v[i]) / 1e6, 0.001);
      const double y = 100.0 * static_cast<double>(i + 1) / n;
      const bool last = i + 1 == v.size();
      if (!last && lastx > 0 && std::log10(x) - std::log10(lastx) < 0.004 && y - lasty < 0.25) continue;  // thin
      if (s.points.empty()) s.points.push_back({x, 0});
      s.points.push_back({x, y});
      lastx = x;
      lasty = y;
      hi = std::max(hi, x);
    }
    c.lines.push_back(std::move(s));
  }
  c.x.range(0.001, std::pow(10.0, std::ceil(std::log10(hi) - 1e-9)));
  return c;
}

/// Tasks of `r` worth an fps plot: at least two frames and not in group "audio".
inline std::vector<std::string> framed_tasks(const run_result& r) {
  std::vector<std::string> out;
  for (const auto& t : r.tasks)
    if (t.frames >= 2 && t.group != "audio") out.push_back(t.name);
  return out;
}

/// Frames produced by `task` in each whole second of simulated time, one line per run.
inline svg::chart fps_over_time(const std::vector<const run_result*>& runs, const std::string& workload,
                                 const std::string& task) {
  svg::chart c;
  c.title = "Frames per second over time: " + task + " (" + workload + ")";
  c.subtitle = "frame markers counted in each second of simulated time";
  c.x.label = "simulated time (s)";
  c.x.zero = true;
  c.y.label = "frames in that second";
  for (const run_result* r : runs) {
    svg::series s;
    s.name = r->policy;
    s.markers = runs.size() <= 4;
    const std::int64_t secs = r->duration_ns / 1000000000;
    std::vector<std::int64_t> bins(static_cast<std::size_t>(std::max<std::int64_t>(secs, 0)), 0);
    for (const auto& t : r->tasks)
      if (t.name == task)
        for (std::int64_t ft : t.frame_times) {
          const std::int64_t b = ft / 1000000000;
          if (b >= 0 && b < secs) ++bins[static_cast<std::size_t>(b)];
        }
    for (std::size_t b = 0; b < bins.size(); ++b) s.points.push_back({static_cast<double>(b) + 0.5, static_cast<double>(bins[b])});
    c.lines.push_back(std::move(s));
  }
  return c;
}

/// The nice-levels workload: one CPU, one CPU hog at each nice level -20..19, `duration` ns.
inline workload nice_levels_workload(duration_ns duration = sec(10)) {
  workload w;
  w.name = "nice-levels";
  w.description = "1 CPU, 40 CPU hogs, one at each nice level -20..19";
  w.cpus = 1;
  w.duration = duration;
  for (int n = -20; n <= 19; ++n) {
    task_spec t;
    t.name = "nice" + std::to_string(n);
    t.params.nice = static_cast<s8>(n);
    t.daemon = true;
    t.group = "hog";
    phase p;
    p.name = "main";
    p.loop = -1;
    p.events.push_back(ev::run(sec(1)));
    t.phases.push_back(std::move(p));
    w.tasks.push_back(std::move(t));
  }
  return w;
}

/// CPU share (% of the CPU, log scale) of each nice level's hog, one line per run, with the
/// share the kernel's load weights (1024 / 1.25^nice) would give as a dashed reference.
inline svg::chart nice_share(const std::vector<const run_result*>& runs) {
  svg::chart c;
  c.title = "CPU share per nice level";
  c.subtitle = "1 CPU, one hog at each nice level -20..19; shares below 0.001 % drawn at 0.001 %";
  c.x.label = "nice";
  c.x.range(-20, 19);
  c.y.label = "% of the CPU (log scale)";
  c.y.log = true;
  c.y.range(0.001, 100);
  for (const run_result* r : runs) {
    svg::series s;
    s.name = r->policy;
    s.markers = false;
    for (const auto& t : r->tasks) {
      const double d = static_cast<double>(r->duration_ns > 0 ? r->duration_ns : 1);
      s.points.push_back({static_cast<double>(t.nice), std::max(100.0 * static_cast<double>(t.cpu_ns) / d, 0.001)});
    }
    std::sort(s.points.begin(), s.points.end());
    c.lines.push_back(std::move(s));
  }
  svg::series ref;
  ref.name = "load weights 1024/1.25^nice";
  ref.color = "#222222";
  ref.dashed = true;
  ref.width = 1.2;
  double total = 0;
  for (int n = -20; n <= 19; ++n) total += nice_weight(n);
  for (int n = -20; n <= 19; ++n) ref.points.push_back({static_cast<double>(n), 100.0 * nice_weight(n) / total});
  c.lines.push_back(std::move(ref));
  return c;
}

/// One line of a knob sweep: a label ("cfs2007 granularity") and (knob value in ms, run) pairs.
struct sweep_line {
  std::string label;                                     ///< legend text
  std::vector<std::pair<double, const run_result*>> pts; ///< knob value (ms) and its run
};

/// A knob sweep: `metric` "cs" (context switches per second) or "makespan" (s) against the knob
/// value (ms, log scale).
inline svg::chart sweep_chart(const std::vector<sweep_line>& lines, const std::string& workload, const std::string& metric) {
  svg::chart c;
  const bool cs = metric == "cs";
  c.title = (cs ? "Context switches per second" : "Makespan") + std::string(" against the timeslice knob: ") + workload;
  c.subtitle = cs ? "vmstat-style cs/s, summed over CPUs" : "when the last non-daemon task exited (build time)";
  c.x.label = "knob value (ms, log scale)";
  c.x.log = true;
  c.y.label = cs ? "context switches / s" : "makespan (s)";
  c.y.zero = cs;
  for (const auto& l : lines) {
    svg::series s;
    s.name = l.label;
    s.markers = true;
    for (const auto& p : l.pts)
      s.points.push_back({p.first, cs ? p.second->totals.cs_per_sec : static_cast<double>(p.second->totals.makespan_ns) / 1e9});
    c.lines.push_back(std::move(s));
  }
  return c;
}

/// One Google Benchmark row of the policy benchmark: BM_cycle/POLICY/N.
struct bench_point {
  std::string policy;  ///< policy name
  double n = 0;        ///< runnable tasks
  double ns = 0;       ///< CPU time per iteration, ns
};

/// Splits one CSV line (RFC 4180 quotes).
inline std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool q = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (q) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        q = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      q = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else if (ch != '\r') {
      out.back() += ch;
    }
  }
  return out;
}

/// The `BM_cycle/POLICY/N` rows of Google Benchmark CSV output (`--benchmark_format=csv`);
/// other rows (wake, aggregates, errors) are skipped. Throws nothing; empty on no match.
inline std::vector<bench_point> parse_bench_csv(const std::string& text) {
  std::vector<bench_point> out;
  std::size_t pos = 0;
  int iname = -1, icpu = -1, iunit = -1;
  while (pos < text.size()) {
    std::size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    const std::string line = text.substr(pos, e - pos);
    pos = e + 1;
    const auto f = csv_split(line);
    if (iname < 0) {  // header
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "name") iname = static_cast<int>(i);
        if (f[i] == "cpu_time") icpu = static_cast<int>(i);
        if (f[i] == "time_unit") iunit = static_cast<int>(i);
      }
      if (icpu < 0 || iunit < 0) iname = -1;
      continue;
    }
    const auto at = [&](int i) { return i >= 0 && static_cast<std::size_t>(i) < f.size() ? f[static_cast<std::size_t>(i)] : std::string(); };
    const std::string name = at(iname);
    if (name.rfind("BM_cycle/", 0) != 0) continue;
    const std::size_t a = name.find('/'), b = name.rfind('/');
    if (b == a) continue;
    const std::string pol = name.substr(a + 1, b - a - 1), ns = name.substr(b + 1);
    if (ns.empty() || ns.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string unit = at(iunit);
    const double mult = unit == "ns" ? 1 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 0;
    const double t = std::strtod(at(icpu).c_str(), nullptr);
    if (mult == 0 || !(t > 0) || !std::isfinite(t)) continue;  // inf and nan are not timings
    out.push_back({pol, std::strtod(ns.c_str(), nullptr), t * mult});
  }
  return out;
}

/// Pick-next cost (one tick, put_prev, pick_next, set_next cycle) against N, one line per policy.
inline svg::chart pick_next_chart(const std::vector<bench_point>& pts) {
  svg::chart c;
  c.title = "Pick-next cost against runnable tasks N";
  c.subtitle = "bench/policy_bench BM_cycle: tick + put_prev + pick_next + set_next, CPU ns per cycle";
  c.x.label = "runnable tasks N (log scale)";
  c.x.log = true;
  c.y.label = "ns per cycle (log scale)";
  c.y.log = true;
  std::vector<std::string> order;
  std::map<std::string, svg::series> by;
  for (const auto& p : pts) {
    if (!by.count(p.policy)) {
      order.push_back(p.policy);
      by[p.policy].name = p.policy;
      by[p.policy].markers = true;
    }
    by[p.policy].points.push_back({p.n, p.ns});
  }
  for (const auto& o : order) {
    auto s = by[o];
    std::sort(s.points.begin(), s.points.end());
    c.lines.push_back(std::move(s));
  }
  return c;
}

/// One `sched_switch` read back from the ftrace text.
struct switch_event {
  std::int64_t ns;   ///< time (us resolution)
  int cpu;           ///< CPU
  int next_pid;      ///< incoming task (0 = idle)
  std::string next;  ///< incoming comm
};

/// Parses the `sched_switch` lines of trace.hpp's ftrace text.
inline std::vector<switch_event> parse_switches(const std::string& trace) {
  std::vector<switch_event> out;
  std::size_t pos = 0;
  while (pos < trace.size()) {
    std::size_t e = trace.find('\n', pos);
    if (e == std::string::npos) e = trace.size();
    const std::string l = trace.substr(pos, e - pos);
    pos = e + 1;
    if (l.empty() || l[0] == '#') continue;
    const std::size_t sw = l.find(": sched_switch: ");
    if (sw == std::string::npos) continue;
    const std::size_t br = l.find(" [");
    const std::size_t fl = l.find("] ", br == std::string::npos ? 0 : br);
    const std::size_t arrow = l.find("==> next_comm=");
    if (br == std::string::npos || fl == std::string::npos || arrow == std::string::npos) continue;
    const int cpu = std::atoi(l.c_str() + br + 2);
    // timestamp: the token before ": sched_switch"
    std::size_t ts = l.rfind(' ', sw - 1);
    if (ts == std::string::npos) continue;
    const std::string t = l.substr(ts + 1, sw - ts - 1);
    const std::size_t dot = t.find('.');
    if (dot == std::string::npos) continue;
    const std::int64_t ns = std::atoll(t.substr(0, dot).c_str()) * 1000000000 + std::atoll(t.substr(dot + 1).c_str()) * 1000;
    const std::size_t cs = arrow + 14;
    const std::size_t pe = l.find(" next_pid=", cs);
    if (pe == std::string::npos) continue;
    out.push_back({ns, cpu, std::atoi(l.c_str() + pe + 10), l.substr(cs, pe - cs)});
  }
  return out;
}

/// Per-CPU rows of who ran when, from `trace` (one run), over [0, window_ns). Each pixel column
/// (`columns` over the window) shows the task that ran longest in it; idle is left blank.
/// Colours: palette index = pid - 1000 (creation order, the same under every policy).
/// `seen` collects (pid, comm) of every task drawn.
inline std::vector<svg::timeline::row> timeline_rows(const std::string& trace, int cpus, std::int64_t window_ns,
                                                     std::map<int, std::string>& seen, int columns = 1000) {
  const auto sw = parse_switches(trace);
  std::vector<svg::timeline::row> rows(static_cast<std::size_t>(std::max(cpus, 1)));
  const double colw = static_cast<double>(window_ns) / columns;
  for (int c = 0; c < cpus; ++c) {
    rows[static_cast<std::size_t>(c)].label = "CPU " + std::to_string(c);
    // segments on this CPU
    std::vector<std::pair<std::int64_t, int>> seg;  // start, pid
    std::map<int, std::string> comm;
    seg.push_back({0, 0});
    for (const auto& e : sw)
      if (e.cpu == c && e.ns < window_ns) {
        seg.push_back({e.ns, e.next_pid});
        comm[e.next_pid] = e.next;
      }
    std::vector<std::map<int, std::int64_t>> occ(static_cast<std::size_t>(columns));
    for (std::size_t i = 0; i < seg.size(); ++i) {
      const std::int64_t a = seg[i].first, b = i + 1 < seg.size() ? seg[i + 1].first : window_ns;
      if (b <= a) continue;
      int k0 = static_cast<int>(static_cast<double>(a) / colw), k1 = static_cast<int>(static_cast<double>(b - 1) / colw);
      k0 = std::min(std::max(k0, 0), columns - 1);
      k1 = std::min(std::max(k1, 0), columns - 1);
      for (int k = k0; k <= k1; ++k) {
        const double lo = std::max(static_cast<double>(a), k * colw), hi = std::min(static_cast<double>(b), (k + 1) * colw);
        if (hi > lo) occ[static_cast<std::size_t>(k)][seg[i].second] += static_cast<std::int64_t>(hi - lo);
      }
    }
    int cur = -1, start = 0;
    auto flush = [&](int end_col) {
      if (cur > 0) {
        const double a = start * colw / 1e6, b = end_col * colw / 1e6;
        const std::string& name = comm[cur];
        seen[cur] = name;
        rows[static_cast<std::size_t>(c)].spans.push_back(
            {a, b, static_cast<std::size_t>(cur >= 1000 ? cur - 1000 : cur), name + ": " + svg::num(a, 1) + "-" + svg::num(b, 1) + " ms"});
      }
    };
    for (int k = 0; k < columns; ++k) {
      int best = 0;
      std::int64_t bv = -1;
      for (const auto& kv : occ[static_cast<std::size_t>(k)])
        if (kv.second > bv) {
          bv = kv.second;
          best = kv.first;
        }
      if (best != cur) {
        flush(k);
        cur = best;
        start = k;
      }
    }
    flush(columns);
  }
  return rows;
}

/// The family's headline table of `runs` (one row per policy) as an HTML table.
inline std::string html_table(const std::vector<const run_result*>& runs, const std::string& family) {
  const auto cols = family_columns(family);
  std::string o = "<table>\n<thead><tr><th>policy</th>";
  for (const auto& c : cols) o += "<th>" + svg::escape(c.header) + "</th>";
  bool has_jain = false, has_starve = false;
  for (const auto& c : cols) {
    has_jain = has_jain || (c.task.empty() && c.metric == "jain");
    has_starve = has_starve || (c.task.empty() && c.metric == "starve_ms");
  }
  if (!has_jain) o += "<th>jain</th>";
  if (!has_starve) o += "<th>starve ms</th>";
  o += "</tr></thead>\n<tbody>\n";
  for (const run_result* r : runs) {
    o += "<tr><td class=\"pol\">" + svg::escape(r->policy) + "</td>";
    for (const auto& c : cols) o += "<td>" + svg::escape(metric_value(*r, c)) + "</td>";
    if (!has_jain) o += "<td>" + svg::escape(metric_value(*r, {"", "", "jain"})) + "</td>";
    if (!has_starve) o += "<td>" + svg::escape(metric_value(*r, {"", "", "starve_ms"})) + "</td>";
    o += "</tr>\n";
  }
  return o + "</tbody>\n</table>\n";
}

/// The stylesheet of the HTML report (inline; no fonts or images are fetched).
inline const char* html_css() {
  return "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;color:#222;background:#f6f7f9;margin:0}\n"
         "main{max-width:1160px;margin:0 auto;padding:20px 28px 40px;background:#fff;box-shadow:0 0 12px rgba(0,0,0,.08)}\n"
         "h1{font-size:26px;margin:8px 0 4px;color:#1d3557}h2{font-size:20px;margin:30px 0 8px;padding-bottom:4px;"
         "border-bottom:2px solid #4e79a7;color:#1d3557}\n"
         "h3{font-size:16px;margin:20px 0 6px}p{line-height:1.45;margin:6px 0}.meta{color:#555;font-size:13px}\n"
         "nav{font-size:13px;background:#eef3f8;padding:8px 12px;border-radius:6px;margin:12px 0}nav a{margin-right:14px;"
         "color:#1d3557}\n"
         "table{border-collapse:collapse;font-size:13px;margin:6px 0 10px}th{background:#1d3557;color:#fff;padding:6px 9px;"
         "text-align:right;font-weight:600}\n"
         "th:first-child{text-align:left}td{padding:4px 9px;text-align:right;border-bottom:1px solid #e4e4e4;"
         "font-variant-numeric:tabular-nums}\n"
         "td.pol{text-align:left;font-family:'DejaVu Sans Mono',monospace;font-size:12px}tbody tr:nth-child(even){background:#f3f6fa}\n"
         "figure{margin:14px 0;padding:8px;border:1px solid #e2e2e2;border-radius:6px;background:#fff;overflow-x:auto}\n"
         "figcaption{font-size:12px;color:#555;margin-top:4px}.note{font-size:12px;color:#7a4b00;background:#fff6e0;"
         "padding:4px 8px;border-radius:4px}\n"
         "code{font-family:'DejaVu Sans Mono',monospace;font-size:12px;background:#f1f1f1;padding:1px 4px;border-radius:3px}\n"
         "footer{font-size:12px;color:#777;margin-top:30px}\n";
}

/// A figure: an inline SVG (`svg::*::%render(false)`) and its caption.
inline std::string html_figure(const std::string& svg_text, const std::string& caption) {
  return "<figure>\n" + svg_text + (caption.empty() ? std::string() : "<figcaption>" + svg::escape(caption) + "</figcaption>\n") +
         "</figure>\n";
}

}  // namespace plots
}  // namespace sim
}  // namespace schedcore

#endif
