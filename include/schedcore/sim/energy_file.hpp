/// @file
/// @brief Reads a machine's performance domains (frequency states, power, capacity) from a
/// JSON file: what `schedsim --energy-model FILE` loads into machine_model::perf_domains.
///
/// @par Format
/// @code{.json}
/// {
///   "rate_limit_us": 2000,
///   "domains": [
///     { "name": "little", "cpus": 4, "capacity": 446, "idle_uw": 0,
///       "states": [ { "khz": 450000, "uw": 40320 }, { "khz": 850000, "uw": 119000 } ] },
///     { "name": "big", "cpus": 2, "capacity": 1024,
///       "states": [ { "khz": 450000, "uw": 160380 }, { "khz": 1100000, "uw": 642840 } ] }
///   ]
/// }
/// @endcode
/// - `domains` (required, 1 or more, at most 64 CPUs in all): in CPU order, the first `cpus`
///   CPUs form the first domain, and so on;
/// - per domain: `cpus` (1..64), `capacity` (1..1024, each CPU's at the top state), `states`
///   (1..256, `khz` strictly ascending, `uw` the power of one busy CPU, both 1..2^32 - 1),
///   optional `idle_uw` (power of one idle CPU, default 0, as the kernel's Energy Model has no
///   idle states) and `name` (a label for tables, unique);
/// - optional `rate_limit_us` (0..1 000 000, default 2000): schedutil's rate limit.
///
/// Strict: unknown keys, repeated keys, wrong types, fractions and out-of-range values are
/// errors naming `FILE:LINE:COLUMN` and what was expected (energy_model_error). The syntax is
/// the rt-app reader's lenient JSON (sim/json.hpp's defaults): comments, trailing commas and
/// single-quoted strings are accepted.
#ifndef SCHEDCORE_SIM_ENERGY_FILE_HPP
#define SCHEDCORE_SIM_ENERGY_FILE_HPP

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

#include "schedcore/sim/engine.hpp"
#include "schedcore/sim/json.hpp"

namespace schedcore {
namespace sim {

/// A bad energy-model file: `what()` is `"FILE:LINE:COLUMN: message"` (`"FILE: message"`
/// when no place applies: cannot open or read; a file too large points at its first byte
/// past the limit).
class energy_model_error : public std::runtime_error {
 public:
  /// The error `message` at `p` in `file` (`p.line` 0: no place).
  energy_model_error(const std::string& file, json::position p, const std::string& message)
      : std::runtime_error(p.line == 0 ? file + ": " + message : file + ":" + json::to_string(p) + ": " + message) {}
};

/// The contents of an energy-model file.
struct energy_model_file {
  std::vector<perf_domain_model> domains;      ///< in CPU order
  std::int64_t rate_limit_ns = 2000000;        ///< schedutil's rate limit
  /// The CPUs of all domains together.
  int cpus() const {
    int n = 0;
    for (const perf_domain_model& d : domains) n += d.cpus;
    return n;
  }
};

namespace detail_energy {

struct reader {
  const std::string& file;

  [[noreturn]] void fail(json::position p, const std::string& msg) const { throw energy_model_error(file, p, msg); }

  /// Checks that `obj` is an object whose keys are among `allowed`, none repeated.
  void keys(const json::value& obj, const char* what, std::initializer_list<std::string_view> allowed) const {
    if (!obj.is_object()) fail(obj.pos, std::string(what) + " must be an object, not " + json::describe(obj.t));
    for (std::size_t i = 0; i < obj.items.size(); ++i) {
      const json::value& m = obj.items[i];
      bool known = false;
      std::string list;
      for (std::string_view k : allowed) {
        known = known || m.key == k;
        list += (list.empty() ? "" : ", ") + std::string(k);
      }
      if (!known) fail(m.key_pos, "unknown key '" + m.key + "' in " + what + " (expected " + list + ")");
      for (std::size_t j = 0; j < i; ++j)
        if (obj.items[j].key == m.key) fail(m.key_pos, "key '" + m.key + "' repeated in " + what);
    }
  }
  /// The integer member `key` of `obj` in [lo, hi]; `fallback` when absent and not required.
  std::int64_t integer(const json::value& obj, const char* key, std::int64_t lo, std::int64_t hi, bool required,
                       std::int64_t fallback) const {
    const json::value* v = obj.find(key);
    if (v == nullptr) {
      if (required) fail(obj.pos, std::string("missing '") + key + "' (an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ")");
      return fallback;
    }
    std::int64_t out = 0;
    if (!v->as_int(out) || out < lo || out > hi)
      fail(v->pos, std::string("'") + key + "' must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                       ", not " + (v->is_number() ? v->s : std::string(json::describe(v->t))));
    return out;
  }

  energy_model_file read(const json::value& root) const {
    keys(root, "the energy model", {"domains", "rate_limit_us"});
    energy_model_file out;
    out.rate_limit_ns = integer(root, "rate_limit_us", 0, 1000000, false, 2000) * 1000;
    const json::value* doms = root.find("domains");
    if (doms == nullptr) fail(root.pos, "missing 'domains' (an array of performance domains)");
    if (!doms->is_array() || doms->items.empty())
      fail(doms->pos, std::string("'domains' must be a non-empty array of performance domains, not ") +
                          (doms->is_array() ? "an empty one" : json::describe(doms->t)));
    int cpus = 0;
    for (const json::value& d : doms->items) {
      keys(d, "a performance domain", {"name", "cpus", "capacity", "idle_uw", "states"});
      perf_domain_model m;
      if (const json::value* n = d.find("name")) {
        if (!n->is_string()) fail(n->pos, std::string("'name' must be a string, not ") + json::describe(n->t));
        // The name reaches the tables and the JSON output: printable, valid UTF-8.
        if (const std::string why = json::label_problem(n->s); !why.empty()) fail(n->pos, "'name': " + why);
        // Tables and the JSON tell domains apart by name.
        for (const perf_domain_model& earlier : out.domains)
          if (earlier.name == n->s) fail(n->pos, "'name': domain \"" + n->s + "\" given twice");
        m.name = n->s;
      }
      m.cpus = static_cast<int>(integer(d, "cpus", 1, 64, true, 0));
      cpus += m.cpus;
      if (cpus > 64) fail(d.find("cpus")->pos, "the domains hold " + std::to_string(cpus) + " CPUs, more than 64");
      m.capacity = static_cast<std::uint32_t>(integer(d, "capacity", 1, 1024, true, 0));
      m.idle_uw = static_cast<std::uint32_t>(integer(d, "idle_uw", 0, UINT32_MAX, false, 0));
      const json::value* states = d.find("states");
      if (states == nullptr) fail(d.pos, "missing 'states' (an array of {\"khz\": ..., \"uw\": ...})");
      if (!states->is_array() || states->items.empty() || states->items.size() > 256)
        fail(states->pos, "'states' must be an array of 1..256 states");
      for (const json::value& s : states->items) {
        keys(s, "a state", {"khz", "uw"});
        const auto khz = static_cast<std::uint32_t>(integer(s, "khz", 1, UINT32_MAX, true, 0));
        const auto uw = static_cast<std::uint32_t>(integer(s, "uw", 1, UINT32_MAX, true, 0));
        if (!m.states.empty() && khz <= m.states.back().first)
          fail(s.find("khz")->pos, "state frequencies must ascend strictly: " + std::to_string(khz) + " kHz after " +
                                       std::to_string(m.states.back().first) + " kHz");
        m.states.emplace_back(khz, uw);
      }
      out.domains.push_back(std::move(m));
    }
    return out;
  }
};

}  // namespace detail_energy

/// Parses energy-model text (`file` names it in messages). Throws energy_model_error.
inline energy_model_file parse_energy_model(std::string_view text, const std::string& file) {
  json::value root;
  try {
    root = json::parse(text, file);
  } catch (const json::error& e) {
    throw energy_model_error(file, e.where(), e.message());
  }
  return detail_energy::reader{file}.read(root);
}

/// Reads and parses `path` (at most 1 MiB). Throws energy_model_error.
inline energy_model_file load_energy_model(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw energy_model_error(path, {}, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  char buf[65536];
  constexpr std::size_t max_bytes = std::size_t{1} << 20;
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    text.append(buf, n);
    if (n < sizeof buf || text.size() > max_bytes) break;
  }
  const bool bad = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (bad) throw energy_model_error(path, {}, std::string("cannot read: ") + std::strerror(err));
  if (text.size() > max_bytes)
    throw energy_model_error(path, json::position_of(text, max_bytes), "file too large: more than 1 MiB (the limit is reached here)");
  return parse_energy_model(text, path);
}

}  // namespace sim
}  // namespace schedcore

#endif
