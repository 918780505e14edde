/// @file
/// @brief HOSTED. Output of run results: JSON (architecture.md's fields, plus extras), CSV (one
/// row per task, plus a `_total` row per run) and seed-style text tables.
///
/// Numbers are printed with fixed formats so output is byte-identical between identical runs;
/// `totals.events_per_sec` (host speed) is the only field that varies, and is 0 when host
/// timing is off (`--no-host-timing`).
#ifndef SCHEDCORE_SIM_REPORT_HPP
#define SCHEDCORE_SIM_REPORT_HPP

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "schedcore/sim/json.hpp"
#include "schedcore/sim/metrics.hpp"

namespace schedcore {
namespace sim {

/// @cond INTERNAL
namespace rep {
inline std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
inline std::string i64(std::int64_t v) { return std::to_string(v); }
inline std::string u64(std::uint64_t v) { return std::to_string(v); }
/// `s` as a JSON string. JSON text is UTF-8 (RFC 8259 §8.1): a byte that does not start a
/// well-formed character (an input path's Latin-1 byte, say) is written as U+FFFD, the
/// replacement character, so the document stays valid whatever the name. O(size).
inline std::string str(const std::string& s) {
  std::string o = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      const std::size_t n = json::utf8_length_at(s, i);
      if (n == 0) {
        o += "\\ufffd";
      } else {
        o.append(s, i, n);
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}
inline std::string lat(const latency_summary& l) {
  return "{ \"p50\": " + i64(l.p50) + ", \"p99\": " + i64(l.p99) + ", \"max\": " + i64(l.max) +
         ", \"count\": " + u64(l.count) + " }";
}
inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}
}  // namespace rep
/// @endcond

/// Energy of a run with DVFS (run_result::domains), mJ, summed over its domains.
inline double energy_mj(const run_result& r) {
  std::uint64_t nj = 0;
  for (const domain_result& d : r.domains) nj += d.energy_nj;
  return static_cast<double>(nj) / 1e6;
}
/// Work done for tasks over the run's domains, ns of a 1024 CPU at f_max (domain_result::work_ns).
inline std::int64_t work_ns(const run_result& r) {
  std::int64_t ns = 0;
  for (const domain_result& d : r.domains) ns += d.work_ns;
  return ns;
}
/// A domain's mean frequency over the window, kHz, weighted by time.
inline double mean_khz(const domain_result& d) {
  double weighted = 0, span = 0;
  for (const auto& [khz, ns] : d.time_in_state) {
    weighted += static_cast<double>(khz) * static_cast<double>(ns);
    span += static_cast<double>(ns);
  }
  return span > 0 ? weighted / span : 0;
}

/// One run as a JSON object (indented by `ind` spaces).
inline std::string to_json(const run_result& r, int ind = 0) {
  using namespace rep;
  const std::string p(static_cast<std::size_t>(ind), ' ');
  std::string o;
  o += p + "{ \"policy\": " + str(r.policy) + ", \"scenario\": " + str(r.scenario) + ", \"cpus\": " + std::to_string(r.cpus) +
       ", \"hz\": " + std::to_string(r.hz) + ", \"seed\": " + u64(r.seed) + ", \"duration_ns\": " + i64(r.duration_ns) + ", \"warmup_ns\": " + i64(r.warmup_ns);
  if (!r.capacity.empty()) {  // only for a machine given capacities (--capacity or an energy model)
    o += ", \"capacity\": [";
    for (std::size_t i = 0; i < r.capacity.size(); ++i) o += (i ? ", " : "") + std::to_string(r.capacity[i]);
    o += "]";
  }
  if (r.smt_threads > 1)  // only for an SMT machine
    o += ", \"smt\": { \"threads_per_core\": " + std::to_string(r.smt_threads) + ", \"gain_pct\": " + std::to_string(r.smt_gain_pct) + " }";
  o += ",\n";
  const run_totals& t = r.totals;
  o += p + "  \"totals\": { \"context_switches\": " + u64(t.context_switches) + ", \"cs_per_sec\": " + fmt("%.3f", t.cs_per_sec) +
       ", \"idle_pct\": " + fmt("%.3f", t.idle_pct) + ", \"makespan_ns\": " + i64(t.makespan_ns) +
       ", \"idle_ns\": " + i64(t.idle_ns) + ", \"overhead_ns\": " + i64(t.overhead_ns) + ", \"task_cpu_ns\": " +
       i64(t.task_cpu_ns) + ", \"longest_starvation_ns\": " + i64(t.longest_starvation_ns) + ", \"migrations\": " +
       u64(t.migrations) + (r.capacity.empty() ? std::string() : ", \"misfit_moves\": " + u64(t.misfit_moves)) +
       (t.rt_pushes + t.rt_pulls + t.dl_pushes + t.dl_pulls == 0
            ? std::string()
            : ", \"rt_pushes\": " + u64(t.rt_pushes) + ", \"rt_pulls\": " + u64(t.rt_pulls) +
                  ", \"dl_pushes\": " + u64(t.dl_pushes) + ", \"dl_pulls\": " + u64(t.dl_pulls)) +
       (t.affinity_moves == 0 ? std::string() : ", \"affinity_moves\": " + u64(t.affinity_moves)) +
       (t.pi_deadlocks == 0 ? std::string() : ", \"pi_deadlocks\": " + u64(t.pi_deadlocks)) +
       (t.pi_steals == 0 ? std::string() : ", \"pi_steals\": " + u64(t.pi_steals)) +
       (t.lock_retries == 0 ? std::string() : ", \"lock_retries\": " + u64(t.lock_retries)) +
       ", \"events\": " + u64(t.events) + ", \"events_per_sec\": " + fmt("%.0f", t.events_per_sec) +
       " },\n";
  if (!r.domains.empty()) {  // only for a machine with performance domains
    o += p + "  \"energy\": { \"total_mj\": " + fmt("%.6f", energy_mj(r)) + ", \"work_ns\": " + i64(work_ns(r)) + ", \"eas_wakeups\": " + u64(t.eas_wakeups) + ", \"domains\": [";
    for (std::size_t i = 0; i < r.domains.size(); ++i) {
      const domain_result& d = r.domains[i];
      o += (i ? ", " : "") + std::string("{ \"name\": ") + str(d.name) + ", \"first_cpu\": " + std::to_string(d.first_cpu) +
           ", \"cpus\": " + std::to_string(d.cpus) + ", \"capacity\": " + std::to_string(d.capacity) +
           ", \"energy_nj\": " + u64(d.energy_nj) + ", \"work_ns\": " + i64(d.work_ns) + ", \"freq_changes\": " + u64(d.freq_changes) +
           ", \"mean_khz\": " + fmt("%.0f", mean_khz(d)) + ", \"time_in_state_ns\": {";
      for (std::size_t k = 0; k < d.time_in_state.size(); ++k)
        o += (k ? ", " : " ") + str(std::to_string(d.time_in_state[k].first)) + ": " + i64(d.time_in_state[k].second);
      o += " } }";
    }
    o += "] },\n";
  }
  o += p + "  \"fairness\": { \"jain\": " + fmt("%.6f", r.jain) + ", \"tasks\": " + u64(r.jain_tasks) + " },\n";
  o += p + "  \"devices\": [";
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const device_result& d = r.devices[i];
    o += (i ? ", " : "") + std::string("{ \"name\": ") + str(d.name) + ", \"requests\": " + u64(d.requests) +
         ", \"busy_ns\": " + i64(d.busy_ns) + ", \"busy_pct\": " + fmt("%.3f", d.busy_pct) + " }";
  }
  o += "],\n";
  o += p + "  \"pipes\": [";
  for (std::size_t i = 0; i < r.pipes.size(); ++i) {
    const pipe_result& q = r.pipes[i];
    o += (i ? ", " : "") + std::string("{ \"name\": ") + str(q.name) + ", \"writes\": " + u64(q.writes) +
         ", \"reads\": " + u64(q.reads) + ", \"items\": " + u64(q.items) + ", \"mean_batch\": " +
         fmt("%.3f", q.mean_batch) + ", \"reader_blocks\": " + u64(q.reader_blocks) + ", \"writer_blocks\": " +
         u64(q.writer_blocks) + ", \"max_items\": " + i64(q.max_items) + " }";
  }
  o += "],\n";
  if (!r.semaphores.empty()) {  // only with semaphores: other runs print what they printed before
    o += p + "  \"semaphores\": [";
    for (std::size_t i = 0; i < r.semaphores.size(); ++i) {
      const semaphore_result& q = r.semaphores[i];
      o += (i ? ", " : "") + std::string("{ \"name\": ") + str(q.name) + ", \"posts\": " + u64(q.posts) + ", \"waits\": " +
           u64(q.waits) + ", \"blocks\": " + u64(q.blocks) + ", \"retries\": " + u64(q.retries) + ", \"overflows\": " + u64(q.overflows) + ", \"count\": " +
           i64(q.count) + ", \"max_count\": " + i64(q.max_count) + ", \"waiters\": " + u64(q.waiters) + " }";
    }
    o += "],\n";
  }
  if (!r.cgroups.empty()) {  // only with a cpu.max limit: other runs print what they printed before
    o += p + "  \"cgroups\": [";
    for (std::size_t i = 0; i < r.cgroups.size(); ++i) {
      const cgroup_result& g = r.cgroups[i];
      o += (i ? ", " : "") + std::string("{ \"name\": ") + str(g.name) + ", \"quota_ns\": " + i64(g.quota_ns) +
           ", \"period_ns\": " + i64(g.period_ns) + ", \"burst_ns\": " + i64(g.burst_ns) + ", \"nr_throttled\": " +
           u64(g.nr_throttled) + ", \"nr_periods\": " + u64(g.nr_periods) + ", \"nr_throttled_periods\": " +
           u64(g.nr_throttled_periods) + ", \"throttled_ns\": " + i64(g.throttled_ns) + ", \"nr_bursts\": " + u64(g.nr_bursts) +
           ", \"burst_used_ns\": " + i64(g.burst_used_ns) + " }";
    }
    o += "],\n";
  }
  o += p + "  \"notes\": [";
  for (std::size_t i = 0; i < r.notes.size(); ++i) o += (i ? ", " : "") + str(r.notes[i]);
  o += "],\n";
  o += p + "  \"tasks\": [";
  for (std::size_t i = 0; i < r.tasks.size(); ++i) {
    const task_result& x = r.tasks[i];
    o += i ? ",\n" : "\n";
    o += p + "    { \"name\": " + str(x.name) + ", \"group\": " + str(x.group) + ", \"policy\": " + str(x.kind) +
         ", \"nice\": " + std::to_string(x.nice) + ", \"rt_priority\": " + std::to_string(x.rt_priority) +
         ", \"cpu_ns\": " + i64(x.cpu_ns) + ", \"wait_ns\": " + i64(x.wait_ns) + ", \"max_wait_ns\": " + i64(x.max_wait_ns) +
         ", \"switches\": " + u64(x.switches) + ", \"migrations\": " + u64(x.migrations) + ", \"start_ns\": " +
         i64(x.start_ns) + ", \"exit_ns\": " + i64(x.exit_ns) + ",\n";
    o += p + "      \"latency_ns\": " + lat(x.latency) + ", \"deadlines\": { \"met\": " + u64(x.deadlines_met) +
         ", \"missed\": " + u64(x.deadlines_missed) + " }, \"fps\": " + fmt("%.3f", x.fps) + ", \"frames\": " +
         u64(x.frames) + ", \"frame_interval_ns\": { \"p50\": " + i64(x.frame_interval.p50) + ", \"p99\": " +
         i64(x.frame_interval.p99) + ", \"max\": " + i64(x.frame_interval.max) + ", \"stddev\": " +
         fmt("%.0f", x.frame_interval.stddev) + " }";
    if (x.response.count > 0) o += ", \"response_ns\": " + lat(x.response);
    if (x.slack.periods > 0)
      o += ", \"slack_ns\": { \"periods\": " + u64(x.slack.periods) + ", \"overruns\": " + u64(x.slack.overruns) +
           ", \"min\": " + i64(x.slack.min) + ", \"p50\": " + i64(x.slack.p50) + " }";
    if (x.reports_overrun) o += ", \"sigxcpu\": " + u64(x.sigxcpu);
    if (x.has_jobs) {
      const job_summary& j = x.jobs;
      o += ",\n" + p + "      \"interbench\": { \"samples\": " + u64(j.samples) + ", \"avg_ms\": " + fmt("%.3f", j.avg_ms) +
           ", \"sd_rms_ms\": " + fmt("%.3f", j.rms_ms) + ", \"sd_true_ms\": " + fmt("%.3f", j.sd_ms) + ", \"max_ms\": " +
           fmt("%.3f", j.max_ms) + ", \"desired_cpu_pct\": " + fmt("%.2f", j.desired_cpu_pct) +
           ", \"deadlines_met_pct\": " + fmt("%.2f", j.deadlines_met_pct) + " }";
    }
    o += " }";
  }
  o += "\n" + p + "  ] }";
  return o;
}

/// Several runs as a JSON array (a single run prints as the bare object).
inline std::string to_json(const std::vector<run_result>& rs, bool always_array = false) {
  if (rs.size() == 1 && !always_array) return to_json(rs[0]) + "\n";
  std::string o = "[\n";
  for (std::size_t i = 0; i < rs.size(); ++i) o += to_json(rs[i], 2) + (i + 1 < rs.size() ? ",\n" : "\n");
  return o + "]\n";
}

/// CSV: a header, then per run one row per task and one `_total` row. Every row ends with the
/// run's seed, which tells replicated runs (`--seeds`) apart. On a machine with performance
/// domains the `_total` row has the run's energy (`energy_mj`, as JSON's `energy.total_mj`) and
/// work (`work_ns`, ns of a 1024 CPU at f_max); those fields are empty otherwise and in task rows.
/// A timer-driven task's row has rt-app's slack (`slack_periods`, `slack_overruns`,
/// `slack_min_ns`, `slack_p50_ns`, as JSON's `slack_ns`) and a task that asked for
/// SCHED_FLAG_DL_OVERRUN its `sigxcpu` count; those fields are empty for the other tasks and in
/// `_total` rows, so an empty field means "not measured", never 0.
inline std::string to_csv(const std::vector<run_result>& rs) {
  using namespace rep;
  std::string o =
      "policy,scenario,task,nice,cpu_ns,wait_ns,switches,lat_p50_ns,lat_p99_ns,lat_max_ns,deadlines_met,deadlines_missed,"
      "fps,slack_periods,slack_overruns,slack_min_ns,slack_p50_ns,sigxcpu,"
      "context_switches,cs_per_sec,idle_pct,makespan_ns,jain,longest_starvation_ns,events,energy_mj,work_ns,seed\n";
  for (const run_result& r : rs) {
    const std::string head = csv_field(r.policy) + "," + csv_field(r.scenario) + ",";
    const std::string seed = "," + u64(r.seed) + "\n";
    for (const task_result& x : r.tasks) {
      o += head + csv_field(x.name) + "," + std::to_string(x.nice) + "," + i64(x.cpu_ns) + "," + i64(x.wait_ns) + "," +
           u64(x.switches) + "," + i64(x.latency.p50) + "," + i64(x.latency.p99) + "," + i64(x.latency.max) + "," +
           u64(x.deadlines_met) + "," + u64(x.deadlines_missed) + "," + fmt("%.3f", x.fps) + "," +
           (x.slack.periods == 0 ? std::string(",,,")
                                 : u64(x.slack.periods) + "," + u64(x.slack.overruns) + "," + i64(x.slack.min) + "," +
                                       i64(x.slack.p50)) +
           "," + (x.reports_overrun ? u64(x.sigxcpu) : std::string()) + ",,,,,,,,," + seed;
    }
    const run_totals& t = r.totals;
    // task = _total, nice empty, then cpu_ns: the header's column order
    o += head + "_total,," + i64(t.task_cpu_ns) + ",,,,,,,,,,,,,," + u64(t.context_switches) + "," + fmt("%.3f", t.cs_per_sec) +
         "," + fmt("%.3f", t.idle_pct) + "," + i64(t.makespan_ns) + "," + fmt("%.6f", r.jain) + "," +
         i64(t.longest_starvation_ns) + "," + u64(t.events) + "," +
         (r.domains.empty() ? std::string(",") : fmt("%.6f", energy_mj(r)) + "," + i64(work_ns(r))) + seed;
  }
  return o;
}

/// A column of a seed-style table.
struct table_column {
  std::string header;  ///< column title
  std::string task;    ///< task (exact name or `name-0`...), `group:NAME` for a group of tasks, empty for totals
  std::string metric;  ///< see `metric_value`
};

/// A table cell's number: `value` in the column's unit, printed with `format`.
struct metric_cell {
  bool present = false;    ///< false: the metric does not apply to this run ("-")
  bool unfinished = false; ///< life_ms of a task that never exited (printed "unfinished")
  double value = 0;        ///< the number, in the column's unit (ms, s, %, 1/s)
  const char* format = "%.1f";  ///< printf format of the column
};

/// The value of `c` in `r` as a number (see metric_cell).
inline metric_cell metric_number(const run_result& r, const table_column& c) {
  const run_totals& t = r.totals;
  auto cell = [](double v, const char* f) { return metric_cell{true, false, v, f}; };
  if (c.task.empty()) {
    if (c.metric == "cs_s") return cell(t.cs_per_sec, "%.0f");
    if (c.metric == "energy_mj") return r.domains.empty() ? metric_cell{} : cell(energy_mj(r), "%.1f");
    if (c.metric == "work_s") return r.domains.empty() ? metric_cell{} : cell(static_cast<double>(work_ns(r)) / 1e9, "%.3f");
    if (c.metric == "mj_per_work_s") {  // energy per second of big-CPU work
      if (r.domains.empty() || work_ns(r) == 0) return metric_cell{};
      return cell(energy_mj(r) / (static_cast<double>(work_ns(r)) / 1e9), "%.1f");
    }
    if (c.metric == "idle") return cell(t.idle_pct, "%.1f");
    if (c.metric == "makespan_s") return cell(static_cast<double>(t.makespan_ns) / 1e9, "%.3f");
    if (c.metric == "jain") return cell(r.jain, "%.3f");
    if (c.metric == "starve_ms") return cell(static_cast<double>(t.longest_starvation_ns) / 1e6, "%.1f");
    if (c.metric == "starve_s") return cell(static_cast<double>(t.longest_starvation_ns) / 1e9, "%.2f");
    if (c.metric == "cpu_s") return cell(static_cast<double>(t.task_cpu_ns) / 1e9, "%.2f");
    if (c.metric == "overhead_ms") return cell(static_cast<double>(t.overhead_ns) / 1e6, "%.1f");
    if (c.metric == "overruns" || c.metric == "slack_min_ms") {  // over every timer-driven task; "-" if none
      std::uint64_t periods = 0, overruns = 0;
      std::int64_t worst = 0;
      for (const auto& x : r.tasks) {
        if (x.slack.periods == 0) continue;
        worst = periods == 0 ? x.slack.min : std::min(worst, x.slack.min);
        periods += x.slack.periods;
        overruns += x.slack.overruns;
      }
      if (periods == 0) return {};
      return c.metric == "overruns" ? cell(static_cast<double>(overruns), "%.0f")
                                    : cell(static_cast<double>(worst) / 1e6, "%.3f");
    }
    if (c.metric.rfind("top_pct:", 0) == 0) {  // % of all task CPU taken by the K busiest tasks
      const std::size_t k = static_cast<std::size_t>(std::stoul(c.metric.substr(8)));
      std::vector<std::int64_t> cpu;
      std::int64_t total = 0;
      for (const auto& x : r.tasks) {
        cpu.push_back(x.cpu_ns);
        total += x.cpu_ns;
      }
      if (total <= 0 || cpu.size() <= k) return {};
      std::partial_sort(cpu.begin(), cpu.begin() + static_cast<std::ptrdiff_t>(k), cpu.end(), std::greater<std::int64_t>());
      std::int64_t top = 0;
      for (std::size_t i = 0; i < k; ++i) top += cpu[i];
      return cell(100.0 * static_cast<double>(top) / static_cast<double>(total), "%.1f");
    }
    if (c.metric == "ran_pct") {  // % of tasks that ran at all
      if (r.tasks.empty()) return {};
      std::size_t ran = 0;
      for (const auto& x : r.tasks) ran += x.cpu_ns > 0 ? 1 : 0;
      return cell(100.0 * static_cast<double>(ran) / static_cast<double>(r.tasks.size()), "%.1f");
    }
    if (c.metric.rfind("ib_", 0) == 0) {  // interbench: the benchmarked task (the one running job steps)
      for (const auto& x : r.tasks) {
        if (!x.has_jobs) continue;
        const job_summary& j = x.jobs;
        if (c.metric == "ib_avg_ms") return cell(j.avg_ms, "%.3f");
        if (c.metric == "ib_rms_ms") return cell(j.rms_ms, "%.3f");
        if (c.metric == "ib_max_ms") return cell(j.max_ms, "%.1f");
        if (c.metric == "ib_cpu_pct") return cell(j.desired_cpu_pct, "%.1f");
        if (c.metric == "ib_met_pct" && x.name != "gaming") return cell(j.deadlines_met_pct, "%.1f");  // Gaming has none
        return {};
      }
      return {};
    }
    if (c.metric.rfind("busy:", 0) == 0) {  // busy % of the device named after the colon
      for (const auto& d : r.devices)
        if (d.name == c.metric.substr(5)) return cell(d.busy_pct, "%.1f");
    }
    if (c.metric.rfind("batch:", 0) == 0) {  // mean items per read of the pipe named after the colon
      for (const auto& q : r.pipes)
        if (q.name == c.metric.substr(6)) return cell(q.mean_batch, "%.1f");
    }
    return {};
  }
  if (c.task.rfind("group:", 0) == 0) {  // summed or pooled over the tasks of one group
    const std::string g = c.task.substr(6);
    double lat_sum = 0, samples = 0, wait = 0, switches = 0, lat_max = 0, cpu = 0;
    bool any = false;
    for (const auto& x : r.tasks) {
      if (x.group != g) continue;
      any = true;
      lat_sum += x.latency.mean * static_cast<double>(x.latency.count);
      samples += static_cast<double>(x.latency.count);
      wait += static_cast<double>(x.wait_ns);
      switches += static_cast<double>(x.switches);
      cpu += static_cast<double>(x.cpu_ns);
      lat_max = std::max(lat_max, static_cast<double>(x.latency.max));
    }
    if (!any) return {};
    if (c.metric == "lat_avg_ms") return samples > 0 ? cell(lat_sum / samples / 1e6, "%.3f") : metric_cell{};
    if (c.metric == "lat_max_ms") return cell(lat_max / 1e6, "%.2f");
    if (c.metric == "wait_s") return cell(wait / 1e9, "%.3f");
    if (c.metric == "switches") return cell(switches, "%.0f");
    if (c.metric == "cpu_s") return cell(cpu / 1e9, "%.2f");
    if (c.metric == "cpu_pct") return cell(100.0 * cpu / static_cast<double>(r.duration_ns > 0 ? r.duration_ns : 1), "%.1f");
    return {};
  }
  const task_result* x = nullptr;
  for (const auto& tr : r.tasks)
    if (tr.name == c.task || tr.name == c.task + "-0") {
      x = &tr;
      break;
    }
  if (x == nullptr) return {};
  const double met = static_cast<double>(x->deadlines_met), missed = static_cast<double>(x->deadlines_missed);
  if (c.metric == "fps") return cell(x->fps, "%.1f");
  if (c.metric == "fsd_ms") return cell(x->frame_interval.stddev / 1e6, "%.2f");
  if (c.metric == "fmax_ms") return cell(static_cast<double>(x->frame_interval.max) / 1e6, "%.1f");
  if (c.metric == "met_pct") return met + missed > 0 ? cell(100.0 * met / (met + missed), "%.1f") : metric_cell{};
  if (c.metric == "lat_p99_ms") return cell(static_cast<double>(x->latency.p99) / 1e6, "%.2f");
  if (c.metric == "lat_max_ms") return cell(static_cast<double>(x->latency.max) / 1e6, "%.2f");
  if (c.metric == "resp_p50_ms") return cell(static_cast<double>(x->response.p50) / 1e6, "%.2f");
  if (c.metric == "resp_p99_ms") return cell(static_cast<double>(x->response.p99) / 1e6, "%.2f");
  if (c.metric == "resp_max_ms") return cell(static_cast<double>(x->response.max) / 1e6, "%.2f");
  if (c.metric == "life_ms") {
    if (x->exit_ns < 0) return metric_cell{false, true, 0, "%.0f"};
    return cell(static_cast<double>(x->exit_ns - x->start_ns) / 1e6, "%.0f");
  }
  if (c.metric == "wait_max_ms") return cell(static_cast<double>(x->max_wait_ns) / 1e6, "%.2f");
  if (c.metric == "wait_avg_ms")  // mean runnable wait per switch-out (for a hog that never sleeps: per preemption)
    return x->switches > 0 ? cell(static_cast<double>(x->wait_ns) / static_cast<double>(x->switches) / 1e6, "%.2f")
                           : metric_cell{};
  if (c.metric == "cpu_pct")
    return cell(100.0 * static_cast<double>(x->cpu_ns) / static_cast<double>(r.duration_ns > 0 ? r.duration_ns : 1), "%.1f");
  return {};
}

/// The value of `c` in `r` as text ("-" when absent).
inline std::string metric_value(const run_result& r, const table_column& c) {
  const metric_cell m = metric_number(r, c);
  if (m.unfinished) return "unfinished";
  return m.present ? rep::fmt(m.format, m.value) : std::string("-");
}

/// Mean and sample standard deviation (n − 1 in the denominator; 0 for one value) of `v`.
/// @pre `v` is not empty.
inline void mean_and_sd(const std::vector<double>& v, double& mean, double& sd) {
  long double s = 0;
  for (double x : v) s += x;
  const long double m = s / static_cast<long double>(v.size());
  long double q = 0;
  for (double x : v) q += (x - m) * (x - m);
  mean = static_cast<double>(m);
  sd = v.size() > 1 ? std::sqrt(static_cast<double>(q / static_cast<long double>(v.size() - 1))) : 0.0;
}

/// One cell over replicated runs (the same workload and policy under different seeds):
/// "mean ±sd" in the column's format (the value alone for one run); "-" when no run has the metric. Runs without it are
/// counted: "mean ±sd (n=k)" when only k of them have it, and "unfinished" when none do
/// because the task never exited.
inline std::string metric_over_runs(const std::vector<const run_result*>& runs, const table_column& c) {
  std::vector<double> v;
  const char* format = "%.1f";
  bool unfinished = false;
  for (const run_result* r : runs) {
    const metric_cell m = metric_number(*r, c);
    unfinished = unfinished || m.unfinished;
    if (!m.present) continue;
    v.push_back(m.value);
    format = m.format;
  }
  if (v.empty()) return unfinished ? "unfinished" : "-";
  double mean = 0, sd = 0;
  mean_and_sd(v, mean, sd);
  std::string o = v.size() == 1 ? rep::fmt(format, mean) : rep::fmt(format, mean) + " ±" + rep::fmt(format, sd);
  if (v.size() < runs.size()) o += " (n=" + std::to_string(v.size()) + ")";
  return o;
}

/// The headline columns of a family (what its seed report argued about).
inline std::vector<table_column> family_columns(const std::string& family) {
  std::vector<table_column> c = {{"cs/s", "", "cs_s"}, {"idle%", "", "idle"}};
  if (family == "desktop-2007") {
    c.insert(c.end(), {{"gpu%", "", "busy:gpu"},
                       {"beryl fps", "beryl", "fps"},
                       {"totem fps", "totem", "fps"},
                       {"totem met%", "totem", "met_pct"},
                       {"totem sd ms", "totem", "fsd_ms"},
                       {"mplayer fps", "gmplayer", "fps"},
                       {"mplayer met%", "gmplayer", "met_pct"},
                       {"audio met%", "muine", "met_pct"},
                       {"firefox ms", "firefox", "life_ms"}});
  } else if (family == "kernbench-4cpu") {
    c.insert(c.end(), {{"elapsed s", "", "makespan_s"}, {"user s", "", "cpu_s"}, {"switch ms", "", "overhead_ms"},
                       {"jain", "", "jain"}});
  } else if (family == "games-renice") {
    c.insert(c.end(), {{"game fps", "game", "fps"},
                       {"frame sd ms", "game", "fsd_ms"},
                       {"frame max ms", "game", "fmax_ms"},
                       {"echo p50 ms", "typist", "resp_p50_ms"},
                       {"echo p99 ms", "typist", "resp_p99_ms"},
                       {"echo max ms", "typist", "resp_max_ms"},
                       {"X p99 ms", "Xorg", "lat_p99_ms"}});
  } else if (family == "autogroup") {  // Mike Galbraith's hog (share, waits) and Linus' browser
    c.insert(c.end(), {{"make cpu%", "group:make", "cpu_pct"},
                       {"hog cpu%", "pert", "cpu_pct"},
                       {"hog wait avg ms", "pert", "wait_avg_ms"},
                       {"hog wait max ms", "pert", "wait_max_ms"},
                       {"browser fps", "browser", "fps"},
                       {"browser met%", "browser", "met_pct"},
                       {"browser p99 ms", "browser", "lat_p99_ms"}});
  } else if (family == "massive-intr") {  // Takeuchi: "4 processes occupy 98% of CPU time"
    c.insert(c.end(), {{"jain", "", "jain"},
                       {"top 4 cpu%", "", "top_pct:4"},
                       {"top 8 cpu%", "", "top_pct:8"},
                       {"ran %", "", "ran_pct"},
                       {"starve s", "", "starve_s"}});
  } else if (family == "eevdf-slices") {  // perf sched latency's columns, per group of tasks
    c.insert(c.end(), {{"cyclictest avg ms", "group:cyclictest", "lat_avg_ms"},
                       {"max ms", "group:cyclictest", "lat_max_ms"},
                       {"delay sum s", "group:cyclictest", "wait_s"},
                       {"intr switches", "group:intr", "switches"},
                       {"intr delay sum s", "group:intr", "wait_s"}});
  } else if (family == "eevdf-hackbench") {  // cyclictest's latency, and hackbench's progress
    c.insert(c.end(), {{"cyclictest avg ms", "group:cyclictest", "lat_avg_ms"},
                       {"p99 ms", "cyclictest", "lat_p99_ms"},
                       {"max ms", "cyclictest", "lat_max_ms"},
                       {"hackbench cpu s", "group:hackbench", "cpu_s"},
                       {"hackbench switches", "group:hackbench", "switches"}});
  } else if (family == "interbench") {  // the benchmarked task, in interbench's columns
    c.insert(c.end(), {{"latency avg ms", "", "ib_avg_ms"},
                       {"\"SD\" ms", "", "ib_rms_ms"},
                       {"max ms", "", "ib_max_ms"},
                       {"% desired CPU", "", "ib_cpu_pct"},
                       {"% deadlines met", "", "ib_met_pct"}});
  } else if (family == "xterm-renice") {
    c.insert(c.end(), {{"seq ms", "xterm", "life_ms"},
                       {"lines/read", "", "batch:pty"},
                       {"X p99 ms", "Xorg", "lat_p99_ms"},
                       {"X max ms", "Xorg", "lat_max_ms"}});
  } else {
    c.insert(c.end(), {{"makespan s", "", "makespan_s"},
                       {"jain", "", "jain"},
                       {"starve ms", "", "starve_ms"},
                       {"overruns", "", "overruns"},
                       {"slack min ms", "", "slack_min_ms"}});
  }
  return c;
}

/// The columns a cell takes in a terminal: its UTF-8 characters (a byte that is not a
/// continuation byte starts one), so that "Über" pads as 4 columns, not 5. East Asian wide
/// characters, which take two, are not told apart. O(size).
inline std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

/// Renders rows of cells as an aligned text table with a rule under the header.
inline std::string render_table(const std::vector<std::vector<std::string>>& rows) {
  if (rows.empty()) return {};
  std::vector<std::size_t> w(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size() && i < w.size(); ++i) w[i] = std::max(w[i], display_width(row[i]));
  std::string o;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      const std::string& s = rows[r][i];
      const std::string pad(w[i] - display_width(s), ' ');
      o += i == 0 ? s + pad : "  " + pad + s;
    }
    o += "\n";
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t i = 0; i < w.size(); ++i) total += w[i] + (i ? 2 : 0);
      o += std::string(total, '-') + "\n";
    }
  }
  return o;
}

/// A seed-style table over replicated runs: one row per policy, each cell the mean ±sd of the
/// family's headline column over that policy's runs (`groups[i]`: the runs of row i, one per
/// seed; see metric_over_runs).
inline std::string seed_table_replicated(const std::vector<std::vector<const run_result*>>& groups,
                                         const std::string& family) {
  auto cols = family_columns(family);
  bool dvfs = false;  // a machine with performance domains: the energy column too
  for (const auto& g : groups)
    for (const run_result* r : g) dvfs = dvfs || !r->domains.empty();
  if (dvfs) cols.insert(cols.end(), {{"energy mJ", "", "energy_mj"}, {"work s", "", "work_s"}, {"mJ/work s", "", "mj_per_work_s"}});
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = {"policy"};
  for (const auto& c : cols) head.push_back(c.header);
  rows.push_back(head);
  for (const auto& g : groups) {
    if (g.empty()) continue;
    std::vector<std::string> row = {g.front()->policy};
    for (const auto& c : cols) row.push_back(metric_over_runs(g, c));
    rows.push_back(row);
  }
  return render_table(rows);
}

/// A seed-style table: one row per run (policy), the family's headline columns.
inline std::string seed_table(const std::vector<run_result>& rs, const std::string& family) {
  std::vector<std::vector<const run_result*>> groups;
  for (const run_result& r : rs) groups.push_back({&r});
  return seed_table_replicated(groups, family);
}

/// Per-task detail table of one run.
inline std::string task_table(const run_result& r) {
  using rep::fmt;
  std::vector<std::vector<std::string>> rows = {{"task", "nice", "cpu ms", "wait ms", "switches", "lat p50 ms", "lat p99 ms",
                                                 "lat max ms", "dl met", "dl missed", "fps"}};
  // rt-app's slack columns, only when some task is timer-driven (so other tables stay as they were).
  bool periodic = false;
  for (const auto& x : r.tasks) periodic = periodic || x.slack.periods > 0;
  if (periodic) rows[0].insert(rows[0].end(), {"periods", "overruns", "slack min ms", "slack p50 ms"});
  // SCHED_FLAG_DL_OVERRUN's signals, only when some task asked for them.
  bool signalled = false;
  for (const auto& x : r.tasks) signalled = signalled || x.reports_overrun;
  if (signalled) rows[0].emplace_back("sigxcpu");
  for (const auto& x : r.tasks) {
    rows.push_back({x.name, x.kind == "normal" || x.kind == "batch" || x.kind == "idle" ? std::to_string(x.nice) : x.kind,
                    fmt("%.1f", static_cast<double>(x.cpu_ns) / 1e6), fmt("%.1f", static_cast<double>(x.wait_ns) / 1e6),
                    std::to_string(x.switches), fmt("%.3f", static_cast<double>(x.latency.p50) / 1e6),
                    fmt("%.3f", static_cast<double>(x.latency.p99) / 1e6),
                    fmt("%.3f", static_cast<double>(x.latency.max) / 1e6), std::to_string(x.deadlines_met),
                    std::to_string(x.deadlines_missed), fmt("%.1f", x.fps)});
    if (periodic) {
      if (x.slack.periods == 0) {
        rows.back().insert(rows.back().end(), {"-", "-", "-", "-"});
      } else {
        rows.back().insert(rows.back().end(), {std::to_string(x.slack.periods), std::to_string(x.slack.overruns),
                                               fmt("%.3f", static_cast<double>(x.slack.min) / 1e6),
                                               fmt("%.3f", static_cast<double>(x.slack.p50) / 1e6)});
      }
    }
    if (signalled) rows.back().push_back(x.reports_overrun ? std::to_string(x.sigxcpu) : "-");
  }
  const run_totals& t = r.totals;
  std::string o = "policy " + r.policy + "  scenario " + r.scenario + "  cpus " + std::to_string(r.cpus) + "  duration " +
                  fmt("%.3f", static_cast<double>(r.duration_ns) / 1e9) + " s\n";
  o += render_table(rows);
  o += "context switches " + std::to_string(t.context_switches) + " (" + fmt("%.0f", t.cs_per_sec) + "/s)  idle " +
       fmt("%.1f", t.idle_pct) + "%  makespan " + fmt("%.3f", static_cast<double>(t.makespan_ns) / 1e9) + " s  jain " +
       fmt("%.3f", r.jain) + "  longest starvation " + fmt("%.1f", static_cast<double>(t.longest_starvation_ns) / 1e6) +
       " ms  events " + std::to_string(t.events) + " (" + fmt("%.0f", t.events_per_sec) + "/s host)\n";
  if (!r.domains.empty()) {
    o += "energy " + fmt("%.1f", energy_mj(r)) + " mJ for " + fmt("%.3f", static_cast<double>(work_ns(r)) / 1e9) +
         " s of work (at a 1024 CPU's top speed):";
    for (const domain_result& d : r.domains)
      o += "  " + (d.name.empty() ? "CPUs " + std::to_string(d.first_cpu) + "-" + std::to_string(d.first_cpu + d.cpus - 1) : d.name) +
           " " + fmt("%.1f", static_cast<double>(d.energy_nj) / 1e6) + " mJ (mean " + fmt("%.0f", mean_khz(d) / 1000) + " MHz, " +
           std::to_string(d.freq_changes) + " changes)";
    o += "\n";
  }
  for (const cgroup_result& g : r.cgroups)  // cpu.stat of each capped group
    o += "cgroup " + g.name + "  cpu.max " + fmt("%.3f", static_cast<double>(g.quota_ns) / 1e6) + " ms per " +
         fmt("%.3f", static_cast<double>(g.period_ns) / 1e6) + " ms" +
         (g.burst_ns > 0 ? " (burst " + fmt("%.3f", static_cast<double>(g.burst_ns) / 1e6) + " ms)" : std::string()) +
         "  periods " + std::to_string(g.nr_periods) + " (" + std::to_string(g.nr_throttled_periods) + " throttled)" +
         "  throttle events " + std::to_string(g.nr_throttled) + ", " +
         fmt("%.1f", static_cast<double>(g.throttled_ns) / 1e6) + " ms  bursts " + std::to_string(g.nr_bursts) + ", " +
         fmt("%.1f", static_cast<double>(g.burst_used_ns) / 1e6) + " ms\n";
  for (const auto& n : r.notes) o += "note: " + n + "\n";
  return o;
}

/// interbench's layout for one policy over replicated runs: per benchmark, one row per load;
/// `groups[i]` holds the runs of one `interbench/<bench>/<load>` scenario, one per seed. A cell
/// is the value itself for one run, else "mean ±sd" over the runs (see mean_and_sd). Latencies
/// are in ms, or in us when the runs carry interbench's `r` option, as interbench prints them.
inline std::string interbench_table_replicated(const std::vector<std::vector<const run_result*>>& groups) {
  // The `r` option: one comma-separated item of the name's option suffix (interbench_options::
  // suffix(), where D= may follow it).
  bool rt = false;
  for (const auto& g : groups)
    if (!g.empty()) {
      const std::string& n = g.front()->scenario;
      std::size_t item = n.find(':');
      while (item != std::string::npos && !rt) {
        const std::size_t end = n.find(',', item + 1);
        rt = n.compare(item + 1, end == std::string::npos ? std::string::npos : end - item - 1, "r") == 0;
        item = end;
      }
      break;
    }
  const double scale = rt ? 1000.0 : 1.0;
  std::vector<std::vector<std::string>> rows = {
      {"bench", "load", rt ? "latency avg (us)" : "latency avg (ms)", "+/- SD", "max", "% desired CPU", "% deadlines met"}};
  for (const auto& g : groups) {
    if (g.empty()) continue;
    const std::string& name = g.front()->scenario;  // interbench/<bench>/<load>[:options]
    const std::string s = name.substr(0, name.find(':'));
    const std::size_t a = s.find('/'), b = s.rfind('/');
    const std::string bench = s.substr(a + 1, b - a - 1), load = s.substr(b + 1);
    std::vector<const job_summary*> js;
    for (const run_result* r : g)
      for (const auto& t : r->tasks)
        if (t.name == bench && t.has_jobs) js.push_back(&t.jobs);
    if (js.empty()) continue;
    auto cell = [&js](double job_summary::*field, const char* format, double times = 1.0) {
      std::vector<double> v;
      for (const job_summary* j : js) v.push_back(j->*field * times);
      if (v.size() == 1) return rep::fmt(format, v[0]);
      double mean = 0, sd = 0;
      mean_and_sd(v, mean, sd);
      return rep::fmt(format, mean) + " ±" + rep::fmt(format, sd);
    };
    rows.push_back({bench, load, cell(&job_summary::avg_ms, "%.3f", scale), cell(&job_summary::rms_ms, "%.3f", scale),
                    cell(&job_summary::max_ms, "%.1f", scale), cell(&job_summary::desired_cpu_pct, "%.1f"),
                    bench == "gaming" ? std::string("-") : cell(&job_summary::deadlines_met_pct, "%.1f")});
  }
  return render_table(rows);
}

/// interbench's layout for one policy: per benchmark, one row per load (one run each).
inline std::string interbench_table(const std::vector<const run_result*>& rs) {
  std::vector<std::vector<const run_result*>> groups;
  for (const run_result* r : rs) groups.push_back({r});
  return interbench_table_replicated(groups);
}

}  // namespace sim
}  // namespace schedcore

#endif
