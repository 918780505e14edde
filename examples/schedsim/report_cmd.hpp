// schedsim plot / schedsim report: SVG plots and a self-contained HTML report (issue 8).
//
//   schedsim plot   --scenario NAME [--policies SPEC,...] --out DIR [--bench CSV] [--only LIST] [options]
//   schedsim report --scenario NAME [--policies SPEC,...] -o FILE.html [--bench CSV] [--only LIST]
//                   [--timeline TIME] [options]
//
// LIST: comma-separated subset of latency,fps,sweep,nice,bench,timeline (plot's default: all but
// timeline; report's: all; bench needs --bench FILE, a `policy_bench --benchmark_format=csv`
// output). options: --cpus N --hz N --duration TIME --seed N --jobs N. Every run is made without
// host timing, so the same command writes the same bytes. Files are written atomically (temporary
// file + rename). Kept apart from main.cpp: main() hands these two commands to
// schedsim_report_main().
#ifndef SCHEDSIM_REPORT_CMD_HPP
#define SCHEDSIM_REPORT_CMD_HPP

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "policies.hpp"
#include "progress.hpp"
#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/plots.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/scenarios.hpp"
#include "schedcore/sim/svg.hpp"
#include "schedcore/sim/trace.hpp"

namespace schedsim_report {

namespace sim = schedcore::sim;

/// An output that cannot be written (a full disk, a directory in the way): exit 2 as a bad
/// output path always was, with the reason and without the usage text (the command line was
/// fine).
struct output_error : sim::usage_error {
  using sim::usage_error::usage_error;
};

/// A --bench file that cannot be read or holds no benchmark rows: a bad input file, exit 3
/// (as a missing --rt-app file), not a usage error.
struct bench_file_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
namespace plots = schedcore::sim::plots;

struct options {
  std::string command, scenario, policies, out, bench, only;
  int cpus = 0, hz = 0, jobs = 0;
  std::int64_t duration = 0, timeline = 1000000000;
  std::uint64_t seed = 1;
  std::set<std::string> want;
  std::string cmdline;
};

inline std::int64_t parse_num(const std::string& flag, const std::string& v, schedcore::knob_unit u, std::int64_t lo,
                              std::int64_t hi) {
  std::int64_t x = 0;
  if (!sim::parse_value(v, u, x) || x < lo || x > hi)
    throw sim::usage_error(flag + ": bad value '" + v + "' (expected " +
                           (u == schedcore::knob_unit::time_ns
                                ? "a time from " + sim::time_text(lo) + " to " + sim::time_text(hi) + "; units ns, us, ms, s)"
                                : "an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ")"));
  return x;
}

// An empty item of a typed list is a usage error, not something to skip (main.cpp's lists too).
inline std::vector<std::string> split(const std::string& s, char sep, const std::string& flag) {
  std::vector<std::string> v;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    const std::size_t n = s.find(sep, pos);
    const std::string item = s.substr(pos, n == std::string::npos ? std::string::npos : n - pos);
    if (item.empty()) throw sim::usage_error(flag + ": empty entry in '" + s + "'");
    v.push_back(item);
    if (n == std::string::npos) break;
    pos = n + 1;
  }
  return v;
}

inline options parse(int argc, char** argv) {
  options o;
  o.command = argv[1];
  o.cmdline = "schedsim";
  for (int i = 1; i < argc; ++i) o.cmdline += std::string(" ") + argv[i];
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) throw sim::usage_error(a + " needs a value");
      // An empty value (an unset shell variable) is refused, not taken as "not given".
      if (argv[i + 1][0] == '\0') throw sim::usage_error(a + ": empty value");
      return argv[++i];
    };
    using schedcore::knob_unit;
    if (a == "--scenario") o.scenario = val();
    else if (a == "--policies" || a == "--policy") o.policies = val();
    else if (a == "--out" && o.command == "plot") o.out = val();
    else if ((a == "-o" || a == "--output") && o.command == "report") o.out = val();
    else if (a == "--bench") o.bench = val();
    else if (a == "--only") o.only = val();
    else if (a == "--cpus") o.cpus = static_cast<int>(parse_num(a, val(), knob_unit::count, 1, 64));
    else if (a == "--hz") o.hz = static_cast<int>(parse_num(a, val(), knob_unit::count, 1, 100000));
    else if (a == "--jobs") o.jobs = static_cast<int>(parse_num(a, val(), knob_unit::count, 1, 256));
    else if (a == "--seed") o.seed = static_cast<std::uint64_t>(parse_num(a, val(), knob_unit::count, 0, INT64_MAX));
    else if (a == "--duration") o.duration = parse_num(a, val(), knob_unit::time_ns, schedcore::usec(100), schedcore::sec(100000));
    else if (a == "--timeline" && o.command == "report") o.timeline = parse_num(a, val(), knob_unit::time_ns, 1000000, schedcore::sec(60));
    else if (a == "--no-host-timing") {}  // always off here
    else throw sim::usage_error("unknown option '" + a + "' for " + o.command);
  }
  if (o.out.empty()) throw sim::usage_error(o.command == "plot" ? "plot needs --out DIR" : "report needs -o FILE.html");
  if (o.command == "report" && !o.bench.empty() && sim::same_file(o.out, o.bench))
    throw sim::usage_error("-o: '" + o.out + "' is the input file '" + o.bench + "': expected another file");
  const std::set<std::string> known = {"latency", "fps", "sweep", "nice", "bench", "timeline"};
  if (o.only.empty()) {
    o.want = {"latency", "fps", "sweep", "nice"};
    if (o.command == "report") o.want.insert("timeline");
    if (!o.bench.empty()) o.want.insert("bench");
  } else {
    for (const auto& k : split(o.only, ',', "--only")) {
      if (!known.count(k)) throw sim::usage_error("--only: unknown plot '" + k + "' (latency,fps,sweep,nice,bench,timeline)");
      if (k == "timeline" && o.command == "plot")
        throw sim::usage_error("--only timeline: the timeline is drawn by report only (plot writes latency,fps,sweep,nice,bench)");
      o.want.insert(k);
    }
  }
  if (o.want.count("bench") && o.bench.empty()) throw sim::usage_error("--only bench needs --bench FILE.csv");
  if (o.scenario.empty() && (o.want.size() > 1 || !o.want.count("bench") || o.command == "report"))
    throw sim::usage_error("missing --scenario NAME (see `schedsim list`)");
  return o;
}

struct wl {
  sim::workload w;
  std::string family;
};

inline std::vector<wl> resolve(const std::string& name) {
  std::vector<wl> out;
  if (name.empty()) return out;
  std::vector<sim::resolved_scenario> found;
  std::string error;
  if (!sim::resolve_scenario(name, found, error)) throw sim::usage_error(error);
  for (auto& f : found) out.push_back({std::move(f.w), std::move(f.family)});
  return out;
}

// Policy specs for a workload of `family`: --policies (knob lists glued back), else the family's rows.
inline std::vector<sim::policy_spec> specs_for(const options& o, const std::string& family, const sim::registry& reg) {
  std::vector<sim::policy_spec> out;
  if (!o.policies.empty()) {
    std::vector<std::string> glued;
    for (const auto& s : split(o.policies, ',', "--policies")) {
      if (!glued.empty() && s.find(':') == std::string::npos && s.find('=') != std::string::npos &&
          glued.back().find(':') != std::string::npos)
        glued.back() += "," + s;
      else
        glued.push_back(s);
    }
    for (const auto& s : glued) out.push_back(sim::parse_policy_spec(reg, s));
    return out;
  }
  std::vector<std::string> rows;
  for (const auto& f : sim::builtin_families())
    if (f.name == family) rows = f.rows;
  if (rows.empty())
    for (const auto& e : reg.entries())
      if (e.name != "ref-rr-rt" && !schedsim_named_only(e.name)) rows.push_back(e.name);
  for (const auto& s : rows) {
    try {
      out.push_back(sim::parse_policy_spec(reg, s));
    } catch (const sim::usage_error&) {
      // a seed row for a policy this build lacks: skipped, as compare does
    }
  }
  return out;
}

struct job {
  const sim::workload* w = nullptr;
  sim::policy_spec spec;
  sim::run_config cfg;
  std::unique_ptr<sim::trace_writer> trace;
  sim::run_result result;
  std::exception_ptr error;
};

inline void run_all(std::vector<std::unique_ptr<job>>& jobs, int njobs) {
  schedsim_progress prog(jobs.size());
  unsigned n = njobs > 0 ? static_cast<unsigned>(njobs) : std::max(1u, std::thread::hardware_concurrency());
  n = std::min<unsigned>(n, static_cast<unsigned>(jobs.size()));
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= jobs.size()) return;
      job& j = *jobs[i];
      try {
        j.cfg.trace = j.trace.get();
        j.result = j.spec.entry->run(*j.w, j.cfg, j.spec.knobs);
        j.result.policy = j.spec.text;
      } catch (...) {
        j.error = std::current_exception();
      }
      prog.step(j.spec.text + " on " + j.w->name);
    }
  };
  if (n <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned k = 0; k < n; ++k) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  prog.finish();
  for (auto& j : jobs)
    if (j->error) std::rethrow_exception(j->error);
}

inline bool has_foreground(const sim::workload& w) {
  for (const auto& t : w.tasks)
    if (!t.daemon && t.instances > 0) return true;
  return false;
}

// One report/plot: the runs, then the charts.
struct plan {
  std::vector<wl> wls;
  std::vector<std::vector<sim::policy_spec>> specs;  // per workload
  sim::workload nice_w;
  std::vector<std::unique_ptr<job>> jobs;
  std::vector<std::vector<job*>> main_runs, timeline_runs;  // per workload, per policy
  std::vector<plots::sweep_line> sweep;
  std::vector<std::pair<std::string, std::vector<std::pair<double, job*>>>> sweep_jobs;
  std::vector<job*> nice_runs;
  std::string sweep_note;
};

// A knob value in ms as an integer number of us ("0.1" ms -> "100").
inline std::string svg_num_us(double ms) { return std::to_string(static_cast<long long>(ms * 1000 + 0.5)); }

inline job* add_job(plan& p, const options& o, const sim::workload& w, const sim::policy_spec& spec, bool samples,
                    std::int64_t duration, bool trace) {
  auto j = std::make_unique<job>();
  j->w = &w;
  j->spec = spec;
  j->cfg.cpus = o.cpus;
  j->cfg.hz = o.hz;
  j->cfg.duration_ns = duration;
  j->cfg.seed = o.seed;
  j->cfg.host_timing = false;
  j->cfg.keep_samples = samples;
  if (trace) j->trace = std::make_unique<sim::trace_writer>();
  p.jobs.push_back(std::move(j));
  return p.jobs.back().get();
}

inline void build_plan(plan& p, const options& o, const sim::registry& reg) {
  p.wls = resolve(o.scenario);
  for (const auto& w : p.wls) p.specs.push_back(specs_for(o, w.family, reg));
  const bool need_main = o.command == "report" || o.want.count("latency") || o.want.count("fps");
  p.main_runs.resize(p.wls.size());
  p.timeline_runs.resize(p.wls.size());
  for (std::size_t i = 0; i < p.wls.size(); ++i) {
    if (need_main)
      for (const auto& s : p.specs[i]) p.main_runs[i].push_back(add_job(p, o, p.wls[i].w, s, true, o.duration, false));
    if (o.want.count("timeline")) {
      const std::int64_t full = o.duration > 0 ? o.duration : p.wls[i].w.duration;
      for (const auto& s : p.specs[i])
        p.timeline_runs[i].push_back(add_job(p, o, p.wls[i].w, s, false, std::min(o.timeline, full), true));
    }
  }
  if (o.want.count("sweep") && !p.wls.empty()) {
    const sim::workload& w = p.wls[0].w;
    auto line = [&](const std::string& pol, const std::string& knob, const std::vector<double>& ms, const std::string& label) {
      if (reg.find(pol) == nullptr) return false;
      std::vector<std::pair<double, job*>> pts;
      for (double v : ms) {
        const std::string spec = pol + ":" + knob + "=" + svg_num_us(v) + "us";
        pts.push_back({v, add_job(p, o, w, sim::parse_policy_spec(reg, spec), false, o.duration, false)});
      }
      p.sweep_jobs.push_back({label, std::move(pts)});
      return true;
    };
    if (!line("cfs2007", "granularity", {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500}, "cfs2007 granularity")) {
      line("cfs", "min_granularity", {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500}, "cfs min_granularity");
      p.sweep_note = "cfs2007 is not registered in this build: the CFS line sweeps cfs's min_granularity instead.";
    }
    line("sd", "rr_interval", {1, 2, 5, 10, 20, 50, 100, 200, 500}, "sd rr_interval");
  }
  if (o.want.count("nice")) {
    p.nice_w = plots::nice_levels_workload(o.duration > 0 ? o.duration : schedcore::sec(10));
    for (const auto& e : reg.entries())
      if (e.name != "ref-rr-rt" && !schedsim_named_only(e.name)) p.nice_runs.push_back(add_job(p, o, p.nice_w, sim::parse_policy_spec(reg, e.name), false, 0, false));
  }
}

inline std::vector<const sim::run_result*> results(const std::vector<job*>& js) {
  std::vector<const sim::run_result*> v;
  for (const job* j : js) v.push_back(&j->result);
  return v;
}

inline std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw bench_file_error(path + ": cannot read (--bench): " + std::strerror(errno));
  std::string s;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  std::fclose(f);
  return s;
}

// A named chart of the output: file stem, SVG text, caption, section.
struct figure {
  std::string section, stem, svg_standalone, svg_inline, caption;
};

template <class Chart>
figure make_figure(const std::string& section, const std::string& stem, const Chart& c, const std::string& caption) {
  return {section, stem, c.render(true), c.render(false), caption};
}

/// The --bench file's rows. Throws bench_file_error when it cannot be read or has none.
inline std::vector<plots::bench_point> read_bench(const std::string& path) {
  auto pts = plots::parse_bench_csv(read_file(path));
  if (pts.empty())
    throw bench_file_error(path + ": no BM_cycle/POLICY/N rows with a finite cpu_time (--bench expects "
                           "`policy_bench --benchmark_format=csv`: a header naming name, cpu_time and time_unit)");
  return pts;
}

inline std::vector<figure> build_figures(plan& p, const options& o) {
  std::vector<figure> figs;
  for (std::size_t i = 0; i < p.wls.size(); ++i) {
    const std::string& name = p.wls[i].w.name;
    const auto rs = results(p.main_runs[i]);
    if (rs.empty()) continue;
    if (o.want.count("latency"))
      figs.push_back(make_figure("latency", plots::safe_name(name) + ".latency-cdf", plots::latency_cdf(rs, name),
                                 "Fraction of wakeups that got a CPU within the given latency (further left and higher is "
                                 "better). All tasks of the workload are pooled."));
    if (o.want.count("fps"))
      for (const auto& t : plots::framed_tasks(*rs[0]))
        figs.push_back(make_figure("fps", plots::safe_name(name) + ".fps-" + plots::safe_name(t), plots::fps_over_time(rs, name, t),
                                   "Frames " + t + " produced in each second. A steady line is smooth playback."));
  }
  if (!p.sweep_jobs.empty()) {
    std::vector<plots::sweep_line> lines;
    for (const auto& sj : p.sweep_jobs) {
      plots::sweep_line l;
      l.label = sj.first;
      for (const auto& pt : sj.second) l.pts.push_back({pt.first, &pt.second->result});
      lines.push_back(std::move(l));
    }
    const std::string& name = p.wls[0].w.name;
    const std::string note = p.sweep_note.empty() ? std::string() : " " + p.sweep_note;
    figs.push_back(make_figure("sweep", plots::safe_name(name) + ".sweep-cs", plots::sweep_chart(lines, name, "cs"),
                               "Context switches per second as the timeslice knob grows." + note));
    if (has_foreground(p.wls[0].w))
      figs.push_back(make_figure("sweep", plots::safe_name(name) + ".sweep-makespan", plots::sweep_chart(lines, name, "makespan"),
                                 "Completion time of the workload's foreground tasks as the timeslice knob grows." + note));
  }
  if (!p.nice_runs.empty())
    figs.push_back(make_figure("nice", "nice-share", plots::nice_share(results(p.nice_runs)),
                               "Share of one CPU each hog got over the run, against its nice level, for every registered "
                               "policy; the dashed line is what the kernel's load weights prescribe."));
  if (o.want.count("bench")) {
    const auto pts = read_bench(o.bench);
    figs.push_back(make_figure("bench", "pick-next", plots::pick_next_chart(pts),
                               "Host CPU time of one scheduling cycle against the number of runnable tasks (from " +
                                   o.bench.substr(o.bench.find_last_of('/') + 1) + ")."));
  }
  return figs;
}

inline std::string timeline_svg(const std::vector<job*>& runs, const sim::workload& w, std::int64_t window, bool zoom) {
  schedcore::sim::svg::timeline tl;
  std::map<int, std::string> seen;
  int cpus = 1;
  std::int64_t win = window;
  for (const job* j : runs) {
    cpus = j->result.cpus;
    win = std::min<std::int64_t>(win, j->result.duration_ns > 0 ? j->result.duration_ns : win);
  }
  if (zoom) win /= 10;
  for (const job* j : runs) {
    auto rows = plots::timeline_rows(j->trace->text(), j->result.cpus, win, seen, 900);
    for (auto& r : rows) {
      r.label = j->result.cpus > 1 ? j->spec.text + "  " + r.label : j->spec.text;
      tl.rows.push_back(std::move(r));
    }
  }
  tl.title = "Who ran when: " + w.name + ", first " + schedcore::sim::svg::num(static_cast<double>(win) / 1e6, 1) + " ms" +
             (zoom ? " (zoom)" : "");
  tl.subtitle = std::string(cpus > 1 ? "one row per policy and CPU" : "one row per policy") +
                "; each pixel shows the task that ran longest in it; blank = idle";
  tl.x_label = "simulated time (ms)";
  tl.x0 = 0;
  tl.x1 = static_cast<double>(win) / 1e6;
  tl.row_height = cpus > 1 ? 16 : 22;
  for (const auto& kv : seen) tl.legend.push_back({kv.second, static_cast<std::size_t>(kv.first >= 1000 ? kv.first - 1000 : kv.first)});
  return tl.render(false);
}

inline std::string html(plan& p, const options& o, const std::vector<figure>& figs) {
  namespace svg = schedcore::sim::svg;
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>schedsim report: " +
                  svg::escape(o.scenario) + "</title>\n<style>\n" + plots::html_css() + "</style>\n</head>\n<body>\n<main>\n";
  std::size_t npol = 0;
  for (const auto& s : p.specs) npol = std::max(npol, s.size());
  h += "<h1>schedsim report: " + svg::escape(o.scenario) + "</h1>\n";
  h += "<p class=\"meta\">" + std::to_string(p.wls.size()) + " workload" + (p.wls.size() == 1 ? "" : "s") + " &times; " +
       std::to_string(npol) + " policies, seed " + std::to_string(o.seed) +
       ". A deterministic simulation of 2007-era machines (schedcore's schedsim), not a measurement: the same command "
       "writes the same file.</p>\n";
  const std::vector<std::pair<std::string, std::string>> secs = {
      {"table", "Comparison"},  {"latency", "Wakeup latency"}, {"fps", "Frames over time"}, {"sweep", "Timeslice knob sweep"},
      {"nice", "Nice levels"}, {"bench", "Pick-next cost"},   {"timeline", "Timeline"}};
  auto present = [&](const std::string& id) {
    if (id == "table") return true;
    if (id == "timeline") return o.want.count("timeline") > 0;
    for (const auto& f : figs)
      if (f.section == id) return true;
    return false;
  };
  h += "<nav>";
  for (const auto& s : secs)
    if (present(s.first)) h += "<a href=\"#" + s.first + "\">" + s.second + "</a>";
  h += "</nav>\n";
  h += "<section id=\"table\">\n<h2>Comparison</h2>\n";
  for (std::size_t i = 0; i < p.wls.size(); ++i) {
    const auto& w = p.wls[i].w;
    h += "<h3>" + svg::escape(w.name) + "</h3>\n<p class=\"meta\">" + svg::escape(w.description) + "</p>\n";
    const auto rs = results(p.main_runs[i]);
    if (!rs.empty()) {
      h += "<p class=\"meta\">" + std::to_string(rs[0]->cpus) + " CPU" + (rs[0]->cpus == 1 ? "" : "s") + ", HZ " +
           std::to_string(rs[0]->hz) + ", " + svg::num(static_cast<double>(rs[0]->duration_ns) / 1e9, 3) +
           " s simulated.</p>\n";
      h += plots::html_table(rs, p.wls[i].family);
      for (const auto& n : rs[0]->notes) h += "<p class=\"note\">" + svg::escape(n) + "</p>\n";
    }
  }
  h += "</section>\n";
  for (const auto& s : secs) {
    if (s.first == "table" || s.first == "timeline" || !present(s.first)) continue;
    h += "<section id=\"" + s.first + "\">\n<h2>" + s.second + "</h2>\n";
    if (s.first == "sweep")
      h += "<p>Run on <code>" + svg::escape(p.wls[0].w.name) + "</code>: " +
           (p.sweep_note.empty() ? std::string("cfs2007's <code>granularity</code> (0.1 to 500 ms)")
                                 : std::string("cfs's <code>min_granularity</code> (0.1 to 500 ms)")) +
           " and SD's <code>rr_interval</code> (1 to 500 ms: its knob starts at 1 ms), the seeds' knobs.</p>\n";
    for (const auto& f : figs)
      if (f.section == s.first) h += plots::html_figure(f.svg_inline, f.caption);
    h += "</section>\n";
  }
  if (o.want.count("timeline")) {
    h += "<section id=\"timeline\">\n<h2>Timeline</h2>\n<p>Per-CPU schedule of the first simulated seconds, read back "
         "from the run's ftrace output (<code>sched_switch</code> events). Colours are tasks; hover a bar for its "
         "span.</p>\n";
    for (std::size_t i = 0; i < p.wls.size(); ++i)
      if (!p.timeline_runs[i].empty())
        for (bool zoom : {false, true}) h += plots::html_figure(timeline_svg(p.timeline_runs[i], p.wls[i].w, o.timeline, zoom), "");
    h += "</section>\n";
  }
  h += "<footer>Generated by <code>" + svg::escape(o.cmdline) +
       "</code>. Metric definitions: the simulator guide (docs/guides/simulator.md); how these numbers compare with the "
       "2007 reports: docs/results.md.</footer>\n</main>\n</body>\n</html>\n";
  return h;
}

inline int main_impl(int argc, char** argv) {
  const options o = parse(argc, argv);
  sim::registry reg;
  schedsim_register_policies(reg);
  plan p;
  build_plan(p, o, reg);
  try {
    if (o.want.count("bench")) (void)read_bench(o.bench);  // a bad file is refused before the runs
    run_all(p.jobs, o.jobs);
  } catch (const sim::workload_error& e) {
    std::fprintf(stderr, "schedsim: %s\n", e.what());
    return 3;
  } catch (const bench_file_error& e) {
    std::fprintf(stderr, "schedsim: %s\n", e.what());
    return 3;
  }
  const auto figs = build_figures(p, o);
  if (o.command == "plot") {
    ::mkdir(o.out.c_str(), 0777);  // one level; an existing directory is fine
    // Every target is checked before the first is written, so that a directory in the way of
    // the tenth figure does not leave nine new ones beside nine old ones.
    for (const auto& f : figs) {
      const std::string path = o.out + "/" + f.stem + ".svg";
      struct stat st {};
      if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw output_error("--out: cannot write '" + path + "': a directory (nothing was written)");
    }
    for (const auto& f : figs) {
      const std::string path = o.out + "/" + f.stem + ".svg";
      std::string why;
      if (!schedcore::sim::write_output_file(path, f.svg_standalone, &why))
        throw output_error("--out: cannot write '" + path + "': " + why);
      std::printf("%s\n", path.c_str());
    }
    return 0;
  }
  std::string why;
  if (!schedcore::sim::write_output_file(o.out, html(p, o, figs), &why))
    throw output_error("-o: cannot write '" + o.out + "': " + why);
  std::printf("%s\n", o.out.c_str());
  return 0;
}

}  // namespace schedsim_report

/// `schedsim plot ...` and `schedsim report ...` (argv[1] is "plot" or "report"). Throws
/// schedcore::sim::usage_error for a bad command line (main() turns it into exit 2).
inline int schedsim_report_main(int argc, char** argv) { return schedsim_report::main_impl(argc, argv); }

#endif
