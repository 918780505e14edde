// rt-app import: the JSON reader (comments, trailing commas, repeated and numbered keys in
// order, bare members, numbers, error positions) and the importer (every event kind, phases,
// loops, instances, policies, cross-checks, error positions), plus end-to-end runs of imported
// workloads under the reference policy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim_entries.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/sim/json.hpp"
#include "schedcore/sim/reference_rr.hpp"
#include "schedcore/sim/registry.hpp"
#include "schedcore/sim/rtapp.hpp"

namespace {

using namespace schedcore;
using namespace schedcore::sim;

// ----------------------------------------------------------------------------- helpers

std::string json_error(const std::string& text, json::parse_options o = {}) {
  try {
    json::parse(text, "f.json", o);
  } catch (const json::error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string rtapp_err(const std::string& text) {
  try {
    parse_rtapp(text, "w.json");
  } catch (const rtapp_error& e) {
    return e.what();
  }
  return "(no error)";
}

// Expects an rt-app error whose text starts with "w.json:LINE:COL: " and contains `part`.
#define EXPECT_RTAPP_ERROR(text, loc, part)                                   \
  do {                                                                        \
    const std::string msg_ = rtapp_err(text);                                 \
    EXPECT_EQ(msg_.rfind(std::string("w.json:") + (loc) + ": ", 0), 0u) << msg_; \
    EXPECT_NE(msg_.find(part), std::string::npos) << msg_;                    \
  } while (0)

// A task "t" with the given members as its single phase.
workload one(const std::string& members, const std::string& extra_tasks = "") {
  return parse_rtapp("{\"tasks\": {\"t\": {" + members + "}" + extra_tasks + "}, \"global\": {\"duration\": 1}}",
                     "w.json");
}

const std::vector<event>& events0(const workload& w) { return w.tasks.at(0).phases.at(0).events; }

using schedcore_test::ref_entry;
policy_entry rt_entry() { return schedcore_test::ref_rt_entry(); }

run_config quick(std::int64_t ns) {
  run_config c;
  c.duration_ns = ns;
  c.host_timing = false;
  return c;
}

// ----------------------------------------------------------------------------- JSON reader

TEST(Json, PlainDocument) {
  const json::value v = json::parse(R"({"a": 1, "b": [true, false, null], "c": {"d": "x"}, "e": -2.5})");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.items.size(), 4u);
  EXPECT_EQ(v.find("a")->i, 1);
  EXPECT_TRUE(v.find("a")->is_int);
  EXPECT_EQ(v.find("b")->items.size(), 3u);
  EXPECT_TRUE(v.find("b")->items[0].b);
  EXPECT_EQ(v.find("b")->items[2].t, json::type::null);
  EXPECT_EQ(v.find("c")->find("d")->s, "x");
  EXPECT_DOUBLE_EQ(v.find("e")->d, -2.5);
  EXPECT_FALSE(v.find("e")->is_int);
  EXPECT_EQ(v.find("zz"), nullptr);
}

TEST(Json, CommentsAnywhere) {
  const json::value v = json::parse("/* head */ { // line\n \"a\" /* k */ : /* v */ 1 // tail\n , \"b\": 2 /* x\n y */ }\n// end");
  ASSERT_EQ(v.items.size(), 2u);
  EXPECT_EQ(v.items[0].key, "a");
  EXPECT_EQ(v.items[1].i, 2);
  EXPECT_EQ(v.items[1].key_pos.line, 3u);  // "b" is on line 3, after the '//' comment's newline
}

TEST(Json, TrailingCommas) {
  const json::value v = json::parse(R"({"a": [1, 2,], "b": {"c": 1,},})");
  EXPECT_EQ(v.items.size(), 2u);
  EXPECT_EQ(v.find("a")->items.size(), 2u);
  EXPECT_EQ(v.find("b")->items.size(), 1u);
  EXPECT_NE(json_error("[1,,2]").find("f.json:1:4: expected a value or ']'"), std::string::npos);
  EXPECT_NE(json_error("{,}").find("f.json:1:2: expected a \"key\" or '}'"), std::string::npos);
}

TEST(Json, DuplicateKeysKeptInOrder) {
  const json::value v = json::parse(R"({"run": 1, "sleep": 2, "run": 3, "run": 4})");
  ASSERT_EQ(v.items.size(), 4u);
  EXPECT_EQ(v.count("run"), 3u);
  EXPECT_EQ(v.find("run")->i, 1);  // first
  std::vector<std::int64_t> runs;
  for (const auto& m : v.items)
    if (m.key == "run") runs.push_back(m.i);
  EXPECT_EQ(runs, (std::vector<std::int64_t>{1, 3, 4}));
}

TEST(Json, NumberedKeysInFileOrder) {
  const json::value v = json::parse(R"({"run1": 1, "run0": 2, "sleep1": 3, "run10": 4})");
  std::vector<std::string> keys;
  for (const auto& m : v.items) keys.push_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"run1", "run0", "sleep1", "run10"}));  // not sorted
}

TEST(Json, BareMembers) {
  const json::value v = json::parse(R"({"suspend", "run": 1, "yield"})");
  ASSERT_EQ(v.items.size(), 3u);
  EXPECT_TRUE(v.items[0].is_none());
  EXPECT_EQ(v.items[0].key, "suspend");
  EXPECT_TRUE(v.items[2].is_none());
  json::parse_options strict;
  strict.allow_bare_members = false;
  EXPECT_NE(json_error(R"({"suspend", "run": 1})", strict).find("f.json:1:11: expected ':' after key \"suspend\""),
            std::string::npos);
  EXPECT_NE(json_error(R"({"a" 1})").find("f.json:1:6: expected ':' after key \"a\", got '1'"), std::string::npos);
}

TEST(Json, StringsAndEscapes) {
  const json::value v = json::parse(R"(["a\"b\\c\/d\n\t", 'single', "\u00e9\ud83d\ude00"])");
  EXPECT_EQ(v.items[0].s, "a\"b\\c/d\n\t");
  EXPECT_EQ(v.items[1].s, "single");
  EXPECT_EQ(v.items[2].s, "\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_NE(json_error("[\"\\q\"]").find("f.json:1:3: bad escape '\\q'"), std::string::npos);
  EXPECT_NE(json_error("[\"\\ud800\"]").find("lone high surrogate"), std::string::npos);
  EXPECT_NE(json_error("[\"a\tb\"]").find("f.json:1:4: control character"), std::string::npos);
  EXPECT_NE(json_error("[\"abc\n\"]").find("f.json:1:6: unterminated string (opened at 1:2)"), std::string::npos);
  EXPECT_NE(json_error("[\"abc").find("f.json:1:2: unterminated string"), std::string::npos);
}

TEST(Json, Numbers) {
  const json::value v =
      json::parse("[0, -7, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1e3, 1.5, 1e400, -0, 0.5, 0e1]");
  std::int64_t x = 0;
  EXPECT_TRUE(v.items[2].as_int(x));
  EXPECT_EQ(x, INT64_MAX);
  EXPECT_TRUE(v.items[3].as_int(x));
  EXPECT_EQ(x, INT64_MIN);
  EXPECT_FALSE(v.items[4].is_int);  // overflows int64
  EXPECT_FALSE(v.items[4].as_int(x));
  EXPECT_TRUE(v.items[5].as_int(x));  // integral double, json-c style
  EXPECT_EQ(x, 1000);
  EXPECT_FALSE(v.items[6].as_int(x));
  EXPECT_FALSE(v.items[7].as_int(x));  // inf
  EXPECT_EQ(v.items[7].s, "1e400");
  EXPECT_TRUE(v.items[8].as_int(x));  // a lone zero, with or without sign, fraction or exponent
  EXPECT_EQ(x, 0);
  EXPECT_EQ(v.items[9].d, 0.5);
  EXPECT_TRUE(v.items[10].as_int(x));
  EXPECT_EQ(x, 0);
  // A leading zero is not JSON (and 010 is octal to C): refused, pointing at the zero.
  EXPECT_EQ(json_error("[007]"), "f.json:1:2: a number with a leading zero: JSON forbids it (write 1, not 01)");
  EXPECT_EQ(json_error("{\"a\": -01}"), "f.json:1:8: a number with a leading zero: JSON forbids it (write 1, not 01)");
  EXPECT_NE(json_error("[00.5]").find("f.json:1:2: a number with a leading zero"), std::string::npos);
  EXPECT_NE(json_error("[0x10]").find("f.json:1:3: unexpected 'x' after a number"), std::string::npos);
  EXPECT_NE(json_error("[+1]").find("f.json:1:2: expected a value"), std::string::npos);
  EXPECT_NE(json_error("[1.]").find("f.json:1:4: expected a digit after '.'"), std::string::npos);
  EXPECT_NE(json_error("[-]").find("f.json:1:3: expected a digit"), std::string::npos);
  EXPECT_NE(json_error("[NaN]").find("f.json:1:2: unexpected bare word 'NaN'"), std::string::npos);
}

TEST(Json, ErrorPositions) {
  EXPECT_EQ(json_error(""), "f.json:1:1: expected a JSON value, got end of file (empty file?)");
  EXPECT_EQ(json_error("  /* only a comment */ \n"), "f.json:2:1: expected a JSON value, got end of file (empty file?)");
  EXPECT_EQ(json_error("{\n  \"a\": 1\n  \"b\": 2\n}"), "f.json:3:3: expected ',' or '}' after the member \"a\", got '\"'");
  EXPECT_EQ(json_error("{\"a\": [1, 2}"), "f.json:1:12: expected ',' or ']' after an array element, got '}'");
  EXPECT_EQ(json_error("{\"a\": {\"b\": 1}"), "f.json:1:15: unexpected end of file: expected ',' or '}' (object opened at 1:1)");
  EXPECT_EQ(json_error("{} x"), "f.json:1:4: expected end of file after the top-level value, got 'x'");
  EXPECT_EQ(json_error("{}\n/* open"), "f.json:2:1: unterminated comment: '/*' without '*/'");
  EXPECT_EQ(json_error("{} / x"), "f.json:1:4: expected a comment ('//' or '/*') after '/'");
  EXPECT_EQ(json_error(std::string("[1, \0]", 6)), "f.json:1:5: expected a value (a \"string\", a number, an object, an array, true, false or null), got byte 0x00");
  EXPECT_EQ(json_error("\t{\"a\": tru}"), "f.json:1:8: unexpected bare word 'tru': expected a value (a \"string\", a number, an object, an array, true, false or null)");
}

TEST(Json, ByteOrderMarkSkipped) {
  const json::value v = json::parse("\xEF\xBB\xBF{\"a\": 1}");
  EXPECT_EQ(v.find("a")->i, 1);
  EXPECT_EQ(v.pos.column, 1u);
}

TEST(Json, LimitsDepthAndValueCount) {
  const std::string deep(100000, '[');
  EXPECT_NE(json_error(deep).find("f.json:1:65: nesting deeper than 64 levels"), std::string::npos);
  json::parse_options o;
  o.max_values = 5;
  EXPECT_NO_THROW(json::parse("[1, 2, 3, 4]", "f.json", o));
  EXPECT_NE(json_error("[1, 2, 3, 4, 5]", o).find("f.json:1:14: too many JSON values (more than 5)"), std::string::npos);
}

// From a mutation audit of the reader: each check below pins a boundary or an option that
// the tests above leave open (a mutant flipping it passed them all).

// Windows line ends in a hand-edited file: '\r' is whitespace, and lines still count by '\n'.
TEST(Json, CarriageReturnsAreWhitespace) {
  const json::value v = json::parse("{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}\r\n");
  ASSERT_EQ(v.items.size(), 2u);
  EXPECT_EQ(v.items[1].key_pos.line, 3u);
  EXPECT_EQ(v.items[1].key_pos.column, 3u);
}

// The option turns single quotes off for values and keys alike (a strict reader).
TEST(Json, SingleQuotesCanBeTurnedOff) {
  json::parse_options strict;
  strict.allow_single_quotes = false;
  EXPECT_EQ(json_error("['a']", strict),
            "f.json:1:2: expected a value (a \"string\", a number, an object, an array, true, false or null), got '''");
  EXPECT_EQ(json_error("{'a': 1}", strict), "f.json:1:2: expected a \"key\" or '}', got '''");
  EXPECT_EQ(json_error("['a']"), "(no error)");
}

// A bare member is a value for the max_values bound: a file of bare keys cannot dodge it.
TEST(Json, BareMembersCountTowardsTheValueLimit) {
  json::parse_options o;
  o.max_values = 3;
  EXPECT_EQ(json_error(R"({"a", "b"})", o), "(no error)");  // the object and two bare members
  EXPECT_EQ(json_error(R"({"a", "b", "c"})", o),
            "f.json:1:12: too many JSON values (more than 3): the file is too large for a workload");
}

// \u escapes at every UTF-8 length boundary (1/2, 2/3, 3/4 bytes), both ends of the surrogate
// ranges, upper-case hex digits, and the short escapes that have no other test.
TEST(Json, UnicodeEscapeBoundariesAndShortEscapes) {
  const json::value v = json::parse(
      R"(["\u007F", "\u0080", "\u07FF", "\u0800", "\uFFFF", "\uD800\uDC00", "\uDBFF\uDFFF", "\u00C9", "\b\f\'", 'it\'s'])");
  ASSERT_EQ(v.items.size(), 10u);
  EXPECT_EQ(v.items[0].s, "\x7F");
  EXPECT_EQ(v.items[1].s, "\xC2\x80");
  EXPECT_EQ(v.items[2].s, "\xDF\xBF");
  EXPECT_EQ(v.items[3].s, "\xE0\xA0\x80");
  EXPECT_EQ(v.items[4].s, "\xEF\xBF\xBF");
  EXPECT_EQ(v.items[5].s, "\xF0\x90\x80\x80");  // U+10000, the first pair
  EXPECT_EQ(v.items[6].s, "\xF4\x8F\xBF\xBF");  // U+10FFFF, the last pair
  EXPECT_EQ(v.items[7].s, "\xC3\x89");          // upper-case hex
  EXPECT_EQ(v.items[8].s, "\b\f'");
  EXPECT_EQ(v.items[9].s, "it's");
  EXPECT_EQ(json_error(R"(["\udc00"])"), "f.json:1:3: bad \\u escape: a lone low surrogate");
  EXPECT_EQ(json_error(R"(["\ud800\u0041"])"), "f.json:1:3: bad \\u escape: a high surrogate must be followed by a low one");
}

// Every byte below 0x20 must be escaped, 0x1F (the last one) included; 0x7F (DEL) is not a
// control character for JSON, and a message shows it as a byte, not as a quoted character.
TEST(Json, ControlCharacterBoundaries) {
  EXPECT_EQ(json_error("[\"a\x1F\"]"), "f.json:1:4: control character (byte 0x1f) inside a string: write it as an escape");
  EXPECT_EQ(json::parse("[\"a\x7F\"]").items[0].s, "a\x7F");
  EXPECT_EQ(json_error("[\x7F]"),
            "f.json:1:2: expected a value (a \"string\", a number, an object, an array, true, false or null), got byte 0x7f");
}

// Exponents: an explicit '+', a missing digit; magnitudes beyond a double keep their sign (inf)
// or become 0 when tiny; -2^63 written as a double is still an exact int64.
TEST(Json, ExponentsAndDoubleRangeEdges) {
  const json::value v = json::parse("[1e+2, 1E-2, 1e-400, -1e400, -9.223372036854775808e18]");
  std::int64_t x = 0;
  EXPECT_TRUE(v.items[0].as_int(x));
  EXPECT_EQ(x, 100);
  EXPECT_DOUBLE_EQ(v.items[1].d, 0.01);
  EXPECT_EQ(v.items[2].d, 0.0);  // underflow: zero, not infinity
  EXPECT_TRUE(v.items[2].as_int(x));
  EXPECT_EQ(x, 0);
  EXPECT_TRUE(std::isinf(v.items[3].d));
  EXPECT_LT(v.items[3].d, 0.0);  // overflow keeps the sign
  EXPECT_FALSE(v.items[3].as_int(x));
  EXPECT_TRUE(v.items[4].as_int(x));  // exactly -2^63: in range
  EXPECT_EQ(x, INT64_MIN);
  EXPECT_EQ(json_error("[1e]"), "f.json:1:4: expected a digit in the exponent, got ']'");
  EXPECT_EQ(json_error("[1e+]"), "f.json:1:5: expected a digit in the exponent, got ']'");
}

// position_of (the place of a size-limit error): 1-based, the column restarting after '\n',
// and the byte at `offset` itself not yet counted.
TEST(Json, PositionOfAnOffset) {
  const std::string text = "ab\ncd";
  EXPECT_EQ(json::to_string(json::position_of(text, 0)), "1:1");
  EXPECT_EQ(json::to_string(json::position_of(text, 2)), "1:3");
  EXPECT_EQ(json::to_string(json::position_of(text, 3)), "2:1");
  EXPECT_EQ(json::to_string(json::position_of(text, 4)), "2:2");
  EXPECT_EQ(json::to_string(json::position_of(text, 99)), "2:3");
}

// Names reach JSON, CSV and trace outputs: the edges of well-formed UTF-8 (RFC 3629 table 3)
// on either side, each checked by label_problem.
TEST(Json, LabelUtf8Boundaries) {
  const char* valid[] = {"plain", "\xC2\x80", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF", "~"};
  for (const char* s : valid) EXPECT_EQ(json::label_problem(s), "") << s;
  const char* invalid[] = {"\xC0\x80",          // overlong NUL
                           "\xC1\xBF",          // overlong
                           "\xE0\x9F\xBF",      // overlong 3-byte
                           "\xED\xA0\x80",      // surrogate U+D800
                           "\xF0\x8F\xBF\xBF",  // overlong 4-byte
                           "\xF4\x90\x80\x80",  // beyond U+10FFFF
                           "\xF5\x80\x80\x80",  // no such lead byte
                           "\xC3\x28",          // first continuation byte missing
                           "\xE2\x28\xA1",      // first continuation byte missing
                           "\xE2\x82"};         // truncated
  for (const char* s : invalid) EXPECT_NE(json::label_problem(s).find("not valid UTF-8"), std::string::npos) << s;
  EXPECT_EQ(json::label_problem("a\x7F"), "a control character (byte 0x7F) in a name: expected printable characters");
  EXPECT_EQ(json::label_problem("a\x1F"), "a control character (byte 0x1F) in a name: expected printable characters");
}

// ----------------------------------------------------------------------------- importer: events

TEST(RtApp, RunRuntimeSleepInMicroseconds) {
  const workload w = one(R"("run": 10, "runtime": 20, "sleep": 30, "sleep": 0)");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].kind, event_kind::run);
  EXPECT_EQ(e[0].duration, 10000);
  EXPECT_EQ(e[1].kind, event_kind::runtime);  // wall time, not work
  EXPECT_EQ(e[1].duration, 20000);
  EXPECT_EQ(e[2].kind, event_kind::sleep);
  EXPECT_EQ(e[2].duration, 30000);
  EXPECT_EQ(e[3].duration, 0);
}

TEST(RtApp, RepeatedAndNumberedEventsKeepFileOrder) {
  const workload w = one(R"("run": 1, "sleep": 2, "run": 3, "run0": 4, "sleep1": 5, "runtime3": 6, "run_x": 7, "timer1": {"ref": "t", "period": 8})");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 8u);
  const event_kind k[] = {event_kind::run, event_kind::sleep,   event_kind::run, event_kind::run,
                          event_kind::sleep, event_kind::runtime, event_kind::run, event_kind::timer};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(e[i].kind, k[i]) << i;
    EXPECT_EQ(e[i].duration, static_cast<std::int64_t>(i + 1) * 1000) << i;
  }
  EXPECT_EQ(e[7].kind, event_kind::timer);
  EXPECT_EQ(e[7].period, 8000);
}

TEST(RtApp, TimerModes) {
  const workload w = one(R"("timer": {"ref": "a", "period": 100}, "timer1": {"ref": "unique", "period": 200, "mode": "absolute"},
                            "timer2": {"ref": "b", "period": 300, "mode": "relative"}, "timer3": {"ref": "z", "period": 0})");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 4u);  // the period-0 timer is kept: it can move a relative timer's reference
  EXPECT_EQ(e[0].ref, "a");
  EXPECT_FALSE(e[0].absolute);
  EXPECT_EQ(e[0].anchor, 0);  // t_first: the use case's start plus the task's delay (none here)
  EXPECT_EQ(e[1].ref, "unique");
  EXPECT_TRUE(e[1].absolute);
  EXPECT_EQ(e[1].period, 200000);
  EXPECT_FALSE(e[2].absolute);
  EXPECT_EQ(e[3].ref, "z");
  EXPECT_EQ(e[3].period, 0);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"timer": {"ref": "a", "period": 1, "mode": "abs"}}}})", "1:61", "expected \"relative\" or \"absolute\"");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"timer": {"period": 1}}}})", "1:27", "missing \"ref\"");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"timer": {"ref": "a"}}}})", "1:27", "missing \"period\"");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"timer": {"ref": "a", "period": 1, "perod": 2}}}})", "1:53", "unknown key 'perod'");
}

// rt-app's suspend and resume (src/rt-app.c, run_event): lock the mutex of the name, then
// pthread_cond_wait / pthread_cond_broadcast on the condition of the name, then unlock; the
// names are those of lock/unlock and wait/signal/broad/sync (get_resource_index by type).
TEST(RtApp, SuspendResumeIncludingBareSuspend) {
  const workload w = one(R"("suspend", "run": 1, "suspend": "", "suspend1": "x")",
                         R"(, "r": {"resume": "t", "resume1": "x", "timer": {"ref": "p", "period": 1000}})");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 10u);
  const auto expect_suspend = [&](std::size_t at, const char* name) {
    EXPECT_EQ(e[at].kind, event_kind::lock);
    EXPECT_EQ(e[at].ref, name);
    EXPECT_EQ(e[at + 1].kind, event_kind::wait);
    EXPECT_EQ(e[at + 1].ref, name);
    EXPECT_EQ(e[at + 1].mutex, name);
    EXPECT_EQ(e[at + 2].kind, event_kind::unlock);
    EXPECT_EQ(e[at + 2].ref, name);
  };
  expect_suspend(0, "t");  // bare = the task's own name
  EXPECT_EQ(e[3].kind, event_kind::run);
  expect_suspend(4, "t");  // "" too
  expect_suspend(7, "x");
  const auto& r = w.tasks.at(1).phases.at(0).events;
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[0].kind, event_kind::lock);
  EXPECT_EQ(r[1].kind, event_kind::broadcast);
  EXPECT_EQ(r[1].ref, "t");
  EXPECT_EQ(r[2].kind, event_kind::unlock);
  EXPECT_EQ(r[2].ref, "t");
}

TEST(RtApp, MutexesConditionsBarrierYieldFork) {
  const workload w = one(
      R"("lock": "m", "wait": {"ref": "c", "mutex": "m"}, "unlock": "m", "barrier": "b", "yield", "yield1": "", "fork": "child", "loop": 1)",
      R"(, "s": {"lock": "m", "signal": "c", "broad": "c", "broadcast": "c", "sync": {"ref": "c", "mutex": "m"}, "unlock": "m", "barrier": "b", "loop": 1},
         "child": {"instance": 0, "loop": 1, "run": 5})");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 7u);
  EXPECT_EQ(e[0].kind, event_kind::lock);
  EXPECT_EQ(e[1].kind, event_kind::wait);
  EXPECT_EQ(e[1].ref, "c");
  EXPECT_EQ(e[1].mutex, "m");
  EXPECT_EQ(e[2].kind, event_kind::unlock);
  EXPECT_EQ(e[3].kind, event_kind::barrier);
  EXPECT_EQ(e[4].kind, event_kind::yield);
  EXPECT_EQ(e[5].kind, event_kind::yield);
  EXPECT_EQ(e[6].kind, event_kind::fork);
  EXPECT_EQ(e[6].ref, "child");
  const auto& s = w.tasks.at(1).phases.at(0).events;
  EXPECT_EQ(s[1].kind, event_kind::signal);
  EXPECT_EQ(s[2].kind, event_kind::broadcast);
  EXPECT_EQ(s[3].kind, event_kind::broadcast);
  EXPECT_EQ(s[4].kind, event_kind::sync);
  EXPECT_EQ(s[4].mutex, "m");
  EXPECT_EQ(w.tasks.at(2).instances, 0);
}

TEST(RtApp, MemIorunMemrunBecomeNotedCpuWork) {
  const workload w = one(R"("mem": 1000, "iorun": 100000, "memrun": {"type": "chase", "count": 10, "size": 4096, "stride": 64, "pattern": "random"},
                            "memrun_a": {"type": "read", "count": 4001, "ref": "shared"})");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 4u);
  for (const auto& x : e) EXPECT_EQ(x.kind, event_kind::run);
  EXPECT_EQ(e[0].duration, 250);    // 1000 bytes at 4 bytes/ns
  EXPECT_EQ(e[1].duration, 25000);
  EXPECT_EQ(e[2].duration, 200);    // 10 hops x 20 ns
  EXPECT_EQ(e[3].duration, 1001);   // rounded up
  EXPECT_GE(w.notes.size(), 3u);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"memrun": {"type": "scan", "count": 1}}}})", "1:37", "expected \"read\", \"write\" or \"chase\"");
}

// sem_post / sem_wait (rt-app's tutorial: a POSIX semaphore per name, initial count 0, posts
// remembered) become the workload's semaphore events, suffixed keys included, and run: the
// consumer blocks at 0, the first post (1 ms) wakes it, and it takes that unit when the producer
// is done (3 ms); the next two posts (2, 3 ms) are kept (3 units at most) and taken without
// blocking after its 2 ms jobs: it exits at 9 ms (as SimEngine's hand-computed semaphore test,
// through the importer).
TEST(RtApp, SemPostAndSemWaitAreACountingSemaphore) {
  const workload w = parse_rtapp(R"({"global": {"duration": 1},
    "tasks": {"consumer": {"loop": 3, "sem_wait": "items", "run": 2000},
              "producer": {"loop": 3, "run": 1000, "sem_post1": "items"}}})",
                                 "w.json");
  ASSERT_EQ(w.tasks.size(), 2u);
  const auto& c = events0(w);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].kind, event_kind::sem_wait);
  EXPECT_EQ(c[0].ref, "items");
  const auto& p = w.tasks[1].phases.at(0).events;
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].kind, event_kind::sem_post);
  EXPECT_EQ(p[1].ref, "items");
  run_config exact_1s = quick(sec(1));
  exact_1s.machine.cs_cost_ns = 0;
  exact_1s.machine.refill_ns = 0;
  const run_result r = ref_entry().run(w, exact_1s, {});
  ASSERT_EQ(r.semaphores.size(), 1u);
  EXPECT_EQ(r.semaphores[0].blocks, 1u);
  EXPECT_EQ(r.semaphores[0].max_count, 3);
  EXPECT_EQ(r.semaphores[0].retries, 0u);
  ASSERT_EQ(r.tasks.size(), 2u);
  for (const task_result& t : r.tasks) EXPECT_EQ(t.exit_ns, t.name == "consumer-0" ? msec(9) : msec(3)) << t.name;
  // Unmatched names and wait cycles are errors, as for suspend/resume and wait/signal.
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"sem_post": "s", "run": 1}}})", "1:30", "sem_post 's': no task waits on 's'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"sem_wait": "s", "run": 1}, "u": {"sem_post": "z", "run": 1}}})", "1:30",
                     "sem_wait on 's': no task posts 's' (it would block forever");
  EXPECT_RTAPP_ERROR(R"({"tasks": {
      "a": {"sem_wait": "x", "run": 1, "sem_post": "y"},
      "b": {"sem_wait": "y", "run": 1, "sem_post": "x"}}})",
                     "2:25", "task 'a' can never get past this sem_wait on 'x': it is posted only by 'b', which is itself "
                             "blocked before it can wake anyone (a sem_post cycle)");
  // One post ahead breaks the cycle: posts are remembered.
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"sem_wait": "x", "run": 1, "sem_post": "y"},
                                            "b": {"sem_post": "x", "sem_wait": "y", "run": 1}}})"));
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"sem_wait": 3, "run": 1}, "u": {"sem_post": "s", "run": 1}}})", "1:30", "expected");
}

TEST(RtApp, BareValueOnlyForSuspendAndYield) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run", "sleep": 1}}})", "1:18", "only \"suspend\" and \"yield\" may stand alone");
}

// ----------------------------------------------------------------------------- tasks, phases, policies

TEST(RtApp, PhasesLoopsInstancesDelay) {
  const workload w = parse_rtapp(R"({
    "tasks": {
      "worker": {
        "instance": 3, "loop": 2, "delay": 1500,
        "phases": {
          "light": {"loop": 10, "run": 3000, "timer": {"ref": "unique", "period": 30000}},
          "heavy": {"run": 27000, "timer": {"ref": "unique", "period": 30000}},
          "light": {"loop": -1, "sleep": 1}
        }
      }
    }
  })", "dir/sub/w.json");
  EXPECT_EQ(w.name, "w.json");
  ASSERT_EQ(w.tasks.size(), 1u);
  const task_spec& t = w.tasks[0];
  EXPECT_EQ(t.name, "worker");
  EXPECT_TRUE(t.suffix_instances);
  EXPECT_EQ(t.instances, 3);
  EXPECT_EQ(t.loop, 2);
  EXPECT_EQ(t.delay, 1500000);
  ASSERT_EQ(t.phases.size(), 3u);  // repeated phase names kept, in order
  EXPECT_EQ(t.phases[0].name, "light");
  EXPECT_EQ(t.phases[0].loop, 10);
  EXPECT_EQ(t.phases[1].loop, 1);  // phase default
  EXPECT_EQ(t.phases[2].loop, -1);
  EXPECT_EQ(w.duration, rtapp_options{}.default_duration_ns);  // no global: -1, capped
}

TEST(RtApp, TaskLoopDefaultsToForever) {
  const workload w = one(R"("run": 1)");
  EXPECT_EQ(w.tasks[0].loop, -1);
  EXPECT_EQ(w.tasks[0].phases[0].loop, 1);
  EXPECT_EQ(w.tasks[0].instances, 1);
}

TEST(RtApp, PoliciesAndPriorities) {
  const workload w = parse_rtapp(R"({
    "global": {"default_policy": "SCHED_BATCH", "duration": 3},
    "tasks": {
      "dflt": {"run": 1},
      "nice": {"policy": "SCHED_OTHER", "priority": -19, "run": 1},
      "idle": {"policy": "SCHED_IDLE", "run": 1},
      "fifo": {"policy": "SCHED_FIFO", "run": 1},
      "rr": {"policy": "SCHED_RR", "priority": 42, "run": 1},
      "dl": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "dl-deadline": 5000, "run": 1},
      "dl2": {"policy": "SCHED_DEADLINE", "dl-runtime": 2000, "run": 1},
      "dl3": {"policy": "SCHED_DEADLINE", "runtime": 3000, "period": 9000, "run": 1},
      "slice": {"policy": "SCHED_OTHER", "dl-runtime": 500, "run": 1},
      "bslice": {"dl-runtime": 20000, "run": 1}
    }
  })", "w.json");
  EXPECT_EQ(w.duration, sec(3));
  const auto& t = w.tasks;
  EXPECT_EQ(t[0].params.kind, sched_kind::batch);
  EXPECT_EQ(t[1].params.kind, sched_kind::normal);
  EXPECT_EQ(t[1].params.nice, -19);
  EXPECT_EQ(t[2].params.kind, sched_kind::idle);
  EXPECT_EQ(t[3].params.kind, sched_kind::fifo);
  EXPECT_EQ(t[3].params.rt_priority, 10);  // rt-app's default for RT classes
  EXPECT_EQ(t[4].params.kind, sched_kind::rr);
  EXPECT_EQ(t[4].params.rt_priority, 42);
  EXPECT_EQ(t[5].params.kind, sched_kind::deadline);
  EXPECT_EQ(t[5].params.runtime, 1000000);
  EXPECT_EQ(t[5].params.period, 10000000);
  EXPECT_EQ(t[5].params.deadline, 5000000);
  EXPECT_EQ(t[6].params.period, 2000000);  // period defaults to runtime, deadline to period
  EXPECT_EQ(t[6].params.deadline, 2000000);
  EXPECT_EQ(t[7].params.runtime, 3000000);  // legacy task-level runtime/period
  EXPECT_EQ(t[7].params.period, 9000000);
  EXPECT_EQ(t[7].phases[0].events.size(), 2u);  // "runtime" inline is also an event (as in rt-app)
  // rt-app's tutorial: "Since Linux 6.12 this parameter also applies to the SCHED_OTHER
  // scheduling class. It is used to request a custom slice length for the thread."
  EXPECT_EQ(t[8].params.kind, sched_kind::normal);
  EXPECT_EQ(t[8].params.runtime, 500000);
  EXPECT_EQ(t[9].params.kind, sched_kind::batch);
  EXPECT_EQ(t[9].params.runtime, 20000000);
  for (const auto& n : w.notes) EXPECT_EQ(n.find("dl-runtime"), std::string::npos) << n;
}

// parse_sched_data reads the legacy task-level "period" and "deadline" only where the dl-*
// keys leave them 0: period = dl-period, else dl-runtime; deadline = dl-deadline, else that
// period. Beside a dl-runtime both are ignored; a "deadline" beside a dl-period too.
TEST(RtApp, LegacyPeriodAndDeadlineOnlyWhereTheDlKeysLeaveThemUnset) {
  const workload w = parse_rtapp(R"({"tasks": {
      "beside_runtime": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "period": 10000, "deadline": 5000, "run": 1},
      "beside_period": {"policy": "SCHED_DEADLINE", "runtime": 1000, "dl-period": 10000, "deadline": 5000, "run": 1},
      "legacy_only": {"policy": "SCHED_DEADLINE", "runtime": 1000, "period": 10000, "deadline": 5000, "run": 1}}})",
                                 "w.json");
  const auto& t = w.tasks;
  EXPECT_EQ(t[0].params.runtime, 1000000);
  EXPECT_EQ(t[0].params.period, 1000000);  // dl-runtime
  EXPECT_EQ(t[0].params.deadline, 1000000);
  EXPECT_EQ(t[1].params.period, 10000000);
  EXPECT_EQ(t[1].params.deadline, 10000000);  // dl-period
  EXPECT_EQ(t[2].params.runtime, 1000000);
  EXPECT_EQ(t[2].params.period, 10000000);
  EXPECT_EQ(t[2].params.deadline, 5000000);
  std::string all;
  for (const auto& n : w.notes) all += n + "\n";
  EXPECT_NE(all.find("legacy \"period\" ignored"), std::string::npos) << all;
  EXPECT_NE(all.find("legacy \"deadline\" ignored"), std::string::npos) << all;
}

TEST(RtApp, PolicyErrors) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_FIF0", "run": 1}}})", "1:28", "did you mean 'SCHED_FIFO'?");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"priority": -21, "run": 1}}})", "1:30", "expected an integer in -20..19");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_RR", "priority": 100, "run": 1}}})", "1:52", "expected an integer in 1..99");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "run": 1}}})", "1:28", "needs \"dl-runtime\" > 0");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 5, "dl-period": 4, "run": 1}}})", "1:76",
                     "dl-runtime <= dl-deadline <= dl-period");
  EXPECT_RTAPP_ERROR(R"({"global": {"default_policy": 3}, "tasks": {"t": {"run": 1}}})", "1:31", "expected a string, got a number");
}

// Phase-level scheduling fields, as rt-app combines them (the oracle: src/rt-app_parse_config.c
// parse_sched_data, called with policy "same" for a phase, and src/rt-app.c set_thread_param;
// doc/tutorial.txt: "the scheduling properties can be changed at the beginning of each phase
// ... otherwise the scheduling parameters will stay unchanged"). A phase's absent policy is the
// one in force as it begins (the task's or an earlier phase's); its absent priority is the
// default of the policy it names (10 for FIFO/RR, nice 0), or the one in force when it names
// none; its dl-runtime/dl-period/dl-deadline are its own, period defaulting to its runtime,
// never taken from the task.
TEST(RtApp, PhaseLevelPolicyBecomesSetPolicyEvent) {
  const workload w = one(R"("priority": 5, "phases": {"a": {"run": 1}, "b": {"policy": "SCHED_FIFO", "run": 2},
      "c": {"priority": 60, "run": 3}, "d": {"policy": "SCHED_OTHER", "run": 4}, "e": {"priority": -3, "run": 5}})");
  const auto& ph = w.tasks[0].phases;
  ASSERT_EQ(ph.size(), 5u);
  EXPECT_EQ(w.tasks[0].params.nice, 5);
  EXPECT_EQ(ph[0].events.size(), 1u);
  ASSERT_EQ(ph[1].events.size(), 2u);
  EXPECT_EQ(ph[1].events[0].kind, event_kind::set_policy);
  EXPECT_EQ(ph[1].events[0].params.kind, sched_kind::fifo);
  EXPECT_EQ(ph[1].events[0].params.rt_priority, 10);  // FIFO's default, not the task's 5
  EXPECT_EQ(ph[2].events[0].kind, event_kind::set_policy);  // the policy in force (FIFO), a new priority
  EXPECT_EQ(ph[2].events[0].params.kind, sched_kind::fifo);
  EXPECT_EQ(ph[2].events[0].params.rt_priority, 60);
  EXPECT_EQ(ph[3].events[0].params.kind, sched_kind::normal);
  EXPECT_EQ(ph[3].events[0].params.nice, 0);  // SCHED_OTHER's default, not the task's 5
  EXPECT_EQ(ph[4].events[0].params.kind, sched_kind::normal);
  EXPECT_EQ(ph[4].events[0].params.nice, -3);

  const workload dl = one(R"("policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "phases": {
      "a": {"run": 1}, "b": {"dl-runtime": 2000, "dl-period": 20000, "run": 2}, "c": {"dl-runtime": 3000, "run": 3}})");
  const auto& dph = dl.tasks[0].phases;
  EXPECT_EQ(dph[1].events[0].params.kind, sched_kind::deadline);
  EXPECT_EQ(dph[1].events[0].params.period, 20000000);
  EXPECT_EQ(dph[1].events[0].params.deadline, 20000000);
  EXPECT_EQ(dph[2].events[0].params.runtime, 3000000);
  EXPECT_EQ(dph[2].events[0].params.period, 3000000);  // its own runtime, not the task's 10 ms
  EXPECT_EQ(dph[2].events[0].params.deadline, 3000000);
  // rt-app calls sched_setattr with a runtime of 0 for a deadline phase without dl-runtime.
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "phases": {"a": {"dl-period": 20000, "run": 1}}}}})",
                     "1:96", "rt-app does not take a phase's deadline parameters from the task");
  // A priority alone in phase "a" meets SCHED_OTHER on the first pass and "b"'s SCHED_FIFO on
  // the next ones: rt-app gives nice 3, then FIFO 3; one program cannot.
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"a": {"priority": 3, "run": 1}, "b": {"policy": "SCHED_FIFO", "priority": 50, "run": 1}}}}})",
                     "1:29", "SCHED_OTHER nice 3 on the first pass, SCHED_FIFO 3 on the next ones");
  EXPECT_NO_THROW(parse_rtapp(  // once through: no next pass
      R"({"tasks": {"t": {"loop": 1, "phases": {"a": {"priority": 3, "run": 1}, "b": {"policy": "SCHED_FIFO", "priority": 50, "run": 1}}}}})"));
}

// "dl-reclaim" (schedsim's extension; rt-app ignores keys it does not know): SCHED_FLAG_RECLAIM
// on a SCHED_DEADLINE task or phase, false by default; like the dl-* keys a phase's own. A
// reclaim request on another policy is an error at the key, as is a value that is not a boolean.
TEST(RtApp, DlReclaimAsksForGrubReclaiming) {
  const workload w = parse_rtapp(R"({"tasks": {
      "on": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "dl-reclaim": true, "run": 1},
      "off": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "run": 1},
      "phased": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "dl-reclaim": true, "phases": {
        "a": {"run": 1}, "b": {"dl-runtime": 2000, "dl-period": 10000, "run": 1},
        "c": {"dl-runtime": 2000, "dl-period": 10000, "dl-reclaim": true, "run": 1}}}}})");
  EXPECT_TRUE(w.tasks[0].params.reclaim);
  EXPECT_FALSE(w.tasks[1].params.reclaim);
  EXPECT_TRUE(w.tasks[2].params.reclaim);
  const auto& ph = w.tasks[2].phases;
  ASSERT_EQ(ph[1].events[0].kind, event_kind::set_policy);
  EXPECT_FALSE(ph[1].events[0].params.reclaim) << "a phase's own dl-* keys, not the task's";
  ASSERT_EQ(ph[2].events[0].kind, event_kind::set_policy);
  EXPECT_TRUE(ph[2].events[0].params.reclaim);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_RR", "dl-reclaim": true, "run": 1}}})", "1:54",
                     "which only SCHED_DEADLINE has");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 100, "dl-reclaim": "yes", "run": 1}}})",
                     "1:79", "'dl-reclaim': expected true or false, got a string");
}

// "dl-overrun" (schedsim's extension, as dl-reclaim): SCHED_FLAG_DL_OVERRUN, a SIGXCPU for each
// runtime overrun; the same scope (a phase's own) and the same errors as dl-reclaim.
TEST(RtApp, DlOverrunAsksForOverrunSignals) {
  const workload w = parse_rtapp(R"({"tasks": {
      "on": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "dl-overrun": true, "run": 1},
      "off": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "dl-overrun": false, "run": 1},
      "phased": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "dl-overrun": true, "phases": {
        "a": {"run": 1}, "b": {"dl-runtime": 2000, "dl-period": 10000, "run": 1},
        "c": {"dl-runtime": 2000, "dl-period": 10000, "dl-overrun": true, "dl-reclaim": true, "run": 1}}}}})");
  EXPECT_TRUE(w.tasks[0].params.dl_overrun);
  EXPECT_FALSE(w.tasks[0].params.reclaim);
  EXPECT_FALSE(w.tasks[1].params.dl_overrun);
  EXPECT_TRUE(w.tasks[2].params.dl_overrun);
  const auto& ph = w.tasks[2].phases;
  ASSERT_EQ(ph[1].events[0].kind, event_kind::set_policy);
  EXPECT_FALSE(ph[1].events[0].params.dl_overrun) << "a phase's own dl-* keys, not the task's";
  ASSERT_EQ(ph[2].events[0].kind, event_kind::set_policy);
  EXPECT_TRUE(ph[2].events[0].params.dl_overrun);
  EXPECT_TRUE(ph[2].events[0].params.reclaim);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"priority": 5, "dl-overrun": true, "run": 1}}})", "1:47",
                     "\"dl-overrun\" asks for runtime overrun signals (SCHED_FLAG_DL_OVERRUN), which only SCHED_DEADLINE has");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 100, "dl-overrun": 1, "run": 1}}})",
                     "1:79", "'dl-overrun': expected true or false, got a number");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 100, "dl-overun": true, "run": 1}}})",
                     "1:65", "did you mean 'dl-overrun'?");
}

TEST(RtApp, CpusAffinityAndMachineSize) {
  const workload w = one(R"("cpus": [0, 3], "run": 1)", R"(, "u": {"phases": {"p": {"cpus": [7], "run": 1}}})");
  EXPECT_EQ(w.tasks[0].cpus, (std::vector<int>{0, 3}));
  EXPECT_EQ(w.cpus, 8);  // phase-level cpus size the machine too
  ASSERT_EQ(w.tasks[1].phases[0].events.size(), 2u);
  EXPECT_EQ(w.tasks[1].phases[0].events[0].kind, event_kind::set_affinity);  // first, as the phase begins
  EXPECT_EQ(w.tasks[1].phases[0].events[0].cpus, (std::vector<int>{7}));
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"cpus": [64], "run": 1}}})", "1:27", "expected an integer in 0..63");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"cpus": 1, "run": 1}}})", "1:26", "expected an array of CPU indices");
}

// A barrier's parties, in rt-app, are counted per reference (src/rt-app_parse_config.c adds the
// task's instance count at every barrier event it parses; doc/tutorial.txt: "the number of users
// is taken from the number of references to the name in the input json ... each name must
// represent a single sync point"). A task that names one barrier in two events would therefore
// wait there forever with every other party; schedsim counted each task once and ran on.
TEST(RtApp, BarrierNamedTwiceByOneTaskIsRefused) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"a": {"barrier": "b", "run": 1, "barrier1": "b"}, "c": {"barrier": "b", "run": 1}}})", "1:56",
                     "rt-app counts every reference to a barrier as a party");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"a": {"phases": {"p": {"barrier": "b", "run": 1}, "q": {"barrier": "b", "run": 1}}}, "c": {"barrier": "b", "run": 1}}})",
                     "1:79", "expected one name per sync point");
  // Once per task, or in a template nobody starts (instance 0 adds no party), is fine.
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"loop": 3, "barrier": "b", "run": 1}, "c": {"barrier": "b", "run": 1},
                                  "z": {"instance": 0, "barrier": "b", "barrier1": "b", "run": 1}}})"));
}

// A timer's mode belongs to the timer, not to the event: rt-app (src/rt-app_parse_config.c)
// creates a timer resource relative and turns it absolute at any event that says "absolute",
// for good. Two events on one timer therefore share the mode: unique refs within a task,
// other refs across the whole file.
TEST(RtApp, TimerModeIsTheTimersNotTheEvents) {
  const workload w = parse_rtapp(R"({"tasks": {
      "a": {"phases": {"light": {"run": 1, "timer": {"ref": "unique", "period": 1000}},
                       "heavy": {"run": 2, "timer": {"ref": "unique", "period": 1000, "mode": "absolute"}},
                       "other": {"run": 3, "timer": {"ref": "uniqueB", "period": 1000}}}},
      "b": {"run": 1, "timer": {"ref": "unique", "period": 1000}, "timer1": {"ref": "shared", "period": 1000}},
      "c": {"run": 1, "timer": {"ref": "shared", "period": 1000, "mode": "absolute"}}}})", "w.json");
  EXPECT_TRUE(w.tasks[0].phases[0].events[1].absolute);   // a's "unique" is absolute in both phases
  EXPECT_TRUE(w.tasks[0].phases[1].events[1].absolute);
  EXPECT_FALSE(w.tasks[0].phases[2].events[1].absolute);  // another timer
  EXPECT_FALSE(w.tasks[1].phases[0].events[1].absolute);  // b's own "unique"
  EXPECT_TRUE(w.tasks[1].phases[0].events[2].absolute);   // "shared" is c's too
  bool noted = false;
  for (const auto& n : w.notes) noted = noted || n.find("absolute") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(RtApp, GlobalKeysAndNotes) {
  const workload w = parse_rtapp(R"({"global": {"duration": 6, "calibration": "CPU0", "default_policy": "SCHED_OTHER", "pi_enabled": true,
      "lock_pages": true, "logdir": "./", "log_basename": "x", "log_size": "file", "ftrace": "main,task", "gnuplot": false,
      "io_device": "/dev/null", "mem_buffer_size": 4194304, "cumulative_slack": false, "frag": 1},
      "resources": {}, "tasks": {"t": {"run": 1, "util_min": 10, "taskgroup": "/tg", "nodes_membind": [0]}}})", "w.json");
  EXPECT_EQ(w.duration, sec(6));
  EXPECT_EQ(w.tasks[0].group, "/tg");
  std::string all;
  for (const auto& n : w.notes) all += n + "\n";
  EXPECT_EQ(w.calibration_cpu, 0);
  EXPECT_EQ(all.find("pi_enabled"), std::string::npos) << "priority inheritance is modelled, not noted";
  EXPECT_TRUE(w.priority_inheritance);
  EXPECT_EQ(all.find("util_min"), std::string::npos) << "clamps are modelled, not noted";
  EXPECT_EQ(w.tasks[0].util_min, 10);
  EXPECT_NE(all.find("global lock_pages, logdir, log_basename, log_size, ftrace (use --trace), gnuplot, io_device, "
                     "mem_buffer_size, cumulative_slack, frag: accepted without effect in the simulation"),
            std::string::npos)
      << all;  // one note naming them (the guide's promise; before, none)
  EXPECT_NE(all.find("NUMA"), std::string::npos);
  EXPECT_NE(all.find("resources"), std::string::npos);
  EXPECT_RTAPP_ERROR(R"({"global": {"durration": 1}, "tasks": {"t": {"run": 1}}})", "1:13", "did you mean 'duration'?");
  // rt-app's calibration (parse_global): "CPUn" calibrates on CPU n, absent is CPU0, a number
  // is a measured ns per loop (work at the biggest CPU's speed here, noted).
  EXPECT_EQ(parse_rtapp(R"({"tasks": {"t": {"run": 1}}})").calibration_cpu, 0);
  const workload on3 = parse_rtapp(R"({"global": {"calibration": "CPU3"}, "tasks": {"t": {"run": 1}}})");
  EXPECT_EQ(on3.calibration_cpu, 3);
  EXPECT_EQ(on3.cpus, 4) << "the calibration CPU must exist, as a task's cpus";
  const workload loops = parse_rtapp(R"({"global": {"calibration": 120}, "tasks": {"t": {"run": 1}}})");
  EXPECT_EQ(loops.calibration_cpu, -1);
  std::string loop_notes;
  for (const auto& n : loops.notes) loop_notes += n + "\n";
  EXPECT_NE(loop_notes.find("calibration 120 ns per loop"), std::string::npos) << loop_notes;
  EXPECT_RTAPP_ERROR(R"({"global": {"calibration": "GPU0"}, "tasks": {"t": {"run": 1}}})", "1:28", "expected \"CPUn\" with n in 0..63");
  EXPECT_RTAPP_ERROR(R"({"global": {"calibration": "CPU64"}, "tasks": {"t": {"run": 1}}})", "1:28", "expected \"CPUn\"");
  EXPECT_RTAPP_ERROR(R"({"global": {"calibration": "CPU"}, "tasks": {"t": {"run": 1}}})", "1:28", "expected \"CPUn\"");
  EXPECT_RTAPP_ERROR(R"({"global": {"calibration": 0}, "tasks": {"t": {"run": 1}}})", "1:28", "ns per loop");
  EXPECT_RTAPP_ERROR(R"({"global": {"gnuplot": "yes"}, "tasks": {"t": {"run": 1}}})", "1:24", "expected true or false");
  EXPECT_RTAPP_ERROR(R"({"global": {"duration": 0}, "tasks": {"t": {"run": 1}}})", "1:25", "expected -1 (until all tasks exit) or >= 1 second");
  EXPECT_RTAPP_ERROR(R"({"global": {"duration": 2000000}, "tasks": {"t": {"run": 1}}})", "1:25", "absurd duration");
}

// util_min / util_max: task level into the spec, phase level as a set_uclamp at the start of
// the phase (after its set_policy: one sched_setattr), changing only the clamps it gives;
// out of range or inverted pairs refused at the key.
TEST(RtApp, UtilisationClamps) {
  const workload w = parse_rtapp(R"({"tasks": {"t": {"util_max": 512, "util_min": 128, "phases": {
      "a": {"util_min": 300, "policy": "SCHED_FIFO", "run": 10},
      "b": {"run": 10},
      "c": {"util_max": 1024, "util_min": 0, "run": 10}}}}})", "w.json");
  const task_spec& t = w.tasks.at(0);
  EXPECT_EQ(t.util_min, 128);
  EXPECT_EQ(t.util_max, 512);
  ASSERT_EQ(t.phases.size(), 3u);
  ASSERT_GE(t.phases[0].events.size(), 3u);
  EXPECT_EQ(t.phases[0].events[0].kind, event_kind::set_policy);
  EXPECT_EQ(t.phases[0].events[1].kind, event_kind::set_uclamp);
  EXPECT_EQ(t.phases[0].events[1].util_min, 300);
  EXPECT_EQ(t.phases[0].events[1].util_max, -2) << "not given: the one in force stays";
  for (const event& e : t.phases[1].events) EXPECT_NE(e.kind, event_kind::set_uclamp);
  EXPECT_EQ(t.phases[2].events[0].kind, event_kind::set_uclamp);
  EXPECT_EQ(t.phases[2].events[0].util_min, 0);
  EXPECT_EQ(t.phases[2].events[0].util_max, 1024);
  const workload only = parse_rtapp(R"({"tasks": {"t": {"run": 1}}})", "w.json");
  EXPECT_EQ(only.tasks.at(0).util_min, -1);
  EXPECT_EQ(only.tasks.at(0).util_max, -1);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1, "util_min": 1025}}})", "1:40", "0..1024");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"util_max": 100, "run": 1, "util_min": 200}}})", "1:45",
                     "util_min 200 is above util_max 100 (sched_setattr refuses the pair)");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"p": {"util_min": 900, "util_max": 800, "run": 1}}}}})", "1:52",
                     "util_min 900 is above util_max 800");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1, "util_max": -1}}})", "1:40", "0..1024");
}

// ----------------------------------------------------------------------------- errors

TEST(RtApp, StructureErrors) {
  EXPECT_RTAPP_ERROR("[]", "1:1", "expected an object at the top level, got an array");
  EXPECT_RTAPP_ERROR(R"({"global": {}})", "1:1", "missing \"tasks\"");
  EXPECT_RTAPP_ERROR(R"({"tasks": {}})", "1:11", "\"tasks\" is empty");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1}}, "task": 1})", "1:30", "unknown top-level key 'task'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1}}, "tasks": {"u": {"run": 1}}})", "1:30", "duplicate top-level key 'tasks'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1}, "t": {"run": 1}}})", "1:29", "duplicate task name 't'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": 5}})", "1:17", "expected an object, got a number");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"loop": 1}}})", "1:17", "no events");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"loop": 1, "loop": 2, "run": 1}}})", "1:29", "duplicate key 'loop'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"instances": 2, "run": 1}}})", "1:18", "did you mean 'instance'?");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1, "phases": {"p": {"run": 1}}}}})", "1:18", "beside \"phases\"");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"p": {"run": 1, "slep": 1}}}}})", "1:45", "unknown key 'slep'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"p": {"delay": 1, "run": 1}}}}})", "1:35", "is a task property");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {}}}})", "1:28", "no phases");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"loop": 0, "run": 1}}})", "1:26", "expected -1 (forever) or >= 1");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"loop": -2, "run": 1}}})", "1:26", "expected -1 (forever) or >= 1");
}

TEST(RtApp, TypeAndRangeErrors) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": "10"}}})", "1:25", "expected an integer number of microseconds, got a string");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1.5}}})", "1:25", "got the fraction 1.5");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": -1}}})", "1:25", "negative time -1 us");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"sleep": 1000000000001}}})", "1:27", "absurd time");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 99999999999999999999}}})", "1:25", "out of range");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1e999}}})", "1:25", "out of range");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"delay": -5, "run": 1}}})", "1:27", "negative time");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"instance": 100001, "run": 1}}})", "1:30", "expected an integer in 0..100000");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"lock": 3, "unlock": "m"}}})", "1:26", "expected a string, got a number");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"resume": ""}}})", "1:28", "expected a non-empty name");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"wait": {"ref": "c"}}}})", "1:26", "missing \"mutex\"");
}

TEST(RtApp, TooManyThreadsInTotal) {
  std::string text = "{\"tasks\": {";
  for (int i = 0; i < 5; ++i) text += "\"t" + std::to_string(i) + "\": {\"instance\": 30000, \"run\": 1},";
  text += "}}";
  const std::string msg = rtapp_err(text);
  EXPECT_NE(msg.find("too many threads: 120000 in total, more than the limit 100000"), std::string::npos) << msg;
}

TEST(RtApp, UnknownNamesAreErrorsWithLocation) {
  EXPECT_RTAPP_ERROR("{\"tasks\": {\"t\": {\n  \"run\": 1,\n  \"resume\": \"nobody\"}}}", "3:13", "no task suspends on 'nobody'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"suspend": "x", "run": 1}}})", "1:29", "no task ever resumes 'x'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"unlock": "m", "run": 1}}})", "1:28", "mutex 'm' is never locked");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"lock": "m", "run": 1}}})", "1:26", "mutex 'm' is never unlocked");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"signal": "c", "run": 1}}})", "1:28", "no task waits on 'c'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"lock": "m", "wait": {"ref": "c", "mutex": "m"}, "unlock": "m", "run": 1}}})", "1:39", "no task signals 'c'");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"wait": {"ref": "c", "mutex": "m"}, "run": 1}, "u": {"signal": "c", "run": 1}}})", "1:26", "its mutex 'm' is never locked");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"fork": "chlid", "run": 1}, "child": {"instance": 0, "run": 1}}})", "1:26",
                     "unknown task 'chlid': expected the name of a task of this file (did you mean 'child'?)");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"fork": "b", "run": 1}, "b": {"instance": 0, "barrier": "x", "run": 1}}})", "1:26", "uses a barrier");
}

TEST(RtApp, ResumeAndSignalCyclesDetected) {
  // Each task suspends before resuming the next: nobody can ever start.
  EXPECT_RTAPP_ERROR(R"({"tasks": {
      "a": {"suspend": "a", "run": 1, "resume": "b"},
      "b": {"suspend": "b", "run": 1, "resume": "c"},
      "c": {"suspend": "c", "run": 1, "resume": "a"}}})",
                     "2:24", "task 'a' can never get past this suspend on 'a': it is resumed only by 'c', which is itself blocked");
  EXPECT_RTAPP_ERROR(R"({"tasks": {
      "a": {"lock": "m", "wait": {"ref": "x", "mutex": "m"}, "signal": "y", "unlock": "m", "run": 1},
      "b": {"lock": "m", "wait": {"ref": "y", "mutex": "m"}, "signal": "x", "unlock": "m", "run": 1}}})",
                     "2:34", "(a signal cycle)");
  // The same pair is fine when one of them resumes the other before it suspends (rt-app's example 4).
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"run": 1, "resume": "b", "suspend": "a"}, "b": {"run": 1, "resume": "a", "suspend": "b"}}})"));
  // A forked child is started by its live parent.
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"p": {"loop": 1, "fork": "c", "resume": "c"}, "c": {"instance": 0, "suspend": "c", "run": 1}}})"));
}

TEST(RtApp, LoopsThatTakeNoTimeAreRefused) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 0}}})", "1:12", "task 't' loops forever but one pass of its program takes no simulated time");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"a": {"resume": "b"}, "b": {"suspend": "b", "run": 1}}})", "1:12", "task 'a' loops forever");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"p": {"run": 1}, "q": {"loop": -1, "yield"}}}}})", "1:46",
                     "task 't' phase 'q' loops forever but takes no simulated time");
  // Finite instantaneous work is bounded over the file: events x loops x instances <= 10^7.
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"loop": 20000000, "sleep": 0}}})", "1:12",
                     "20000000 passes of a program that takes no simulated time bring the instantaneous events");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"instance": 100, "loop": 200000, "sleep": 0}}})", "1:12",
                     "more than 10000000");  // 2 x 10^7 with the instances
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"loop": 4000000, "run0": 0, "run1": 0, "run2": 0}}})", "1:12",
                     "more than 10000000");  // 1.2 x 10^7 events
  EXPECT_RTAPP_ERROR(R"({"tasks": {"a": {"loop": 6000000, "run": 0}, "b": {"loop": 6000000, "run": 0}}})", "1:46",
                     "more than 10000000");  // over the whole file
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"t": {"loop": 2000000, "sleep": 0}}})"));  // 2 x 10^6: fine
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"t": {"loop": 20, "run": 0}}})"));  // finite and small: fine
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"t": {"timer": {"ref": "x", "period": 1000}}}})"));  // a timer advances
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"timer": {"ref": "x", "period": 0}}}})", "1:12",
                     "task 't' loops forever");  // a timer without a period does not
  // A loop that only waits for other tasks (a relay thread: rt-app blocks in it) is accepted:
  // suspend, wait, sync, sem_wait, barrier. (Before, only work, sleeps and timers counted.)
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"suspend": "a", "resume": "b"}, "b": {"run": 1000, "resume": "a", "suspend": "b"}}})"));
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"sem_wait": "s"}, "b": {"run": 1000, "sem_post": "s"}}})"));
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"barrier": "x"}, "b": {"run": 1000, "barrier": "x"}}})"));
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"lock": "m", "wait": {"ref": "c", "mutex": "m"}, "unlock": "m"},
                                             "b": {"run": 1000, "lock": "m", "signal": "c", "unlock": "m"}}})"));
}

// ----------------------------------------------------------------------------- boundaries
// From a mutation audit of the importer: each test pins a limit, a default or a rule that the
// tests above leave open (a mutant changing it passed them all).

// rt-app recognises event types by prefix; schedsim takes a suffix of digits or of '_'/'-' and
// anything, and refuses other words that merely start with an event name.
TEST(RtApp, EventSuffixesDashAndUnderscoreButNotWords) {
  const workload w = one(R"("run-a": 7, "sleep_b": 8)");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].kind, event_kind::run);
  EXPECT_EQ(e[0].duration, 7000);
  EXPECT_EQ(e[1].kind, event_kind::sleep);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"running": 1}}})", "1:18", "unknown key 'running'");
}

// An unknown key's message lists what the parser accepts there, the keys added after the
// message was first written included (semaphores, dl-reclaim and dl-overrun, membind_nodes, the
// task-level legacy period and deadline), and suggests the nearest.
TEST(RtApp, AnUnknownKeyListsEveryAcceptedKeyAndTheNearest) {
  // A list item: after "(" or ", ", before "," or ")".
  const auto listed = [](const std::string& msg, const std::string& k) {
    for (const char* before : {"(", ", "})
      for (const char* after : {",", ")"})
        if (msg.find(before + k + after) != std::string::npos) return true;
    return false;
  };
  const std::string task_msg = rtapp_err(R"({"tasks": {"t": {"sem_wiat": "s"}}})");
  for (const char* k : {"sem_post", "sem_wait", "memrun", "iorun", "barrier", "broadcast", "dl-reclaim", "dl-overrun",
                        "membind_nodes", "nodes_membind", "taskgroup", "instance", "delay", "phases", "period", "deadline"})
    EXPECT_TRUE(listed(task_msg, k)) << k << " missing from: " << task_msg;
  EXPECT_NE(task_msg.find("or a task property"), std::string::npos) << task_msg;
  EXPECT_NE(task_msg.find("(did you mean 'sem_wait'?)"), std::string::npos) << task_msg;
  // In a phase: the same events, no task-only keys.
  const std::string phase_msg = rtapp_err(R"({"tasks": {"t": {"phases": {"p": {"dl-overun": 1}}}}})");
  EXPECT_NE(phase_msg.find("or a phase property"), std::string::npos) << phase_msg;
  EXPECT_TRUE(listed(phase_msg, "sem_post")) << phase_msg;
  EXPECT_TRUE(listed(phase_msg, "dl-reclaim")) << phase_msg;
  EXPECT_FALSE(listed(phase_msg, "instance")) << phase_msg;
  EXPECT_NE(phase_msg.find("(did you mean 'dl-overrun'?)"), std::string::npos) << phase_msg;
}

// The largest accepted values are accepted: a time of 10^12 us, a duration of 100000 s, a CPU
// index 63, calibration "CPU12" (two digits), an instance count at the limit, util_min equal to
// util_max, and a deadline period at each end of the deadline class's [100 us, 2^22 us].
TEST(RtApp, RangeLimitsAreInclusive) {
  EXPECT_EQ(events0(one(R"("sleep": 1000000000000)"))[0].duration, std::int64_t{1000000000000} * 1000);
  EXPECT_EQ(parse_rtapp(R"({"global": {"duration": 100000}, "tasks": {"t": {"run": 1}}})").duration, sec(100000));
  EXPECT_EQ(parse_rtapp(R"({"tasks": {"t": {"cpus": [63], "run": 1}}})").cpus, 64);
  const workload cal = parse_rtapp(R"({"global": {"calibration": "CPU12"}, "tasks": {"t": {"run": 1}}})");
  EXPECT_EQ(cal.calibration_cpu, 12);
  EXPECT_EQ(cal.cpus, 13);
  EXPECT_EQ(parse_rtapp(R"({"tasks": {"t": {"instance": 100000, "loop": 1, "run": 1}}})").tasks[0].instances, 100000);
  const workload clamp = one(R"("util_min": 300, "util_max": 300, "run": 1)");
  EXPECT_EQ(clamp.tasks[0].util_min, 300);
  EXPECT_EQ(clamp.tasks[0].util_max, 300);
  const workload dl = parse_rtapp(R"({"tasks": {
      "short": {"policy": "SCHED_DEADLINE", "dl-runtime": 50, "dl-period": 100, "run": 1},
      "long": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 4194304, "run": 1}}})");
  EXPECT_EQ(dl.tasks[0].params.period, 100000);
  EXPECT_EQ(dl.tasks[1].params.period, std::int64_t{4194304} * 1000);
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 50, "dl-period": 99, "run": 1}}})", "1:77",
                     "in [100, 4194304] us (got 99 us)");
}

// global duration -1 is rt-app's "until every task exits": accepted, the default span.
TEST(RtApp, GlobalDurationMinusOneMeansTheDefault) {
  const workload w = parse_rtapp(R"({"global": {"duration": -1}, "tasks": {"t": {"run": 1}}})");
  EXPECT_EQ(w.duration, rtapp_options{}.default_duration_ns);
}

// Keys that must not repeat: in "global" and inside an event's object (only events repeat).
TEST(RtApp, DuplicateKeysInGlobalAndEventObjects) {
  EXPECT_RTAPP_ERROR(R"({"global": {"duration": 1, "duration": 2}, "tasks": {"t": {"run": 1}}})", "1:28",
                     "global: duplicate key 'duration' (only events may repeat)");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"timer": {"ref": "a", "period": 1, "period": 2}}}})", "1:53",
                     "duplicate key 'period'");
}

// Types and ranges checked even where the value has no effect: a deadline task's priority,
// a yield's value, the NUMA node lists, memrun's size; and the empty names.
TEST(RtApp, ValuesWithoutEffectAreStillChecked) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 100, "priority": "x", "run": 1}}})", "1:77",
                     "'priority': expected an integer, got a string");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1, "yield": 3}}})", "1:37", "expected a string (ignored) or nothing, got a number");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"nodes_membind": [-1], "run": 1}}})", "1:36", "-1 is out of range");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"run": 1, "memrun": {"type": "read", "count": 8, "size": 0}}}})", "1:75",
                     "'size': 0 is out of range");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"": {"run": 1}}})", "1:12", "empty task name");
}

// mem/iorun/memrun: bytes / 4 ns, rounded up (a byte of traffic is not free); a memrun of
// count 0 is allowed (no work).
TEST(RtApp, MemoryWorkRoundsUpAndAllowsZero) {
  const workload w = one(R"("mem": 1001, "iorun": 1, "memrun": {"type": "write", "count": 0}, "run": 1)");
  const auto& e = events0(w);
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].duration, 251);
  EXPECT_EQ(e[1].duration, 1);
  EXPECT_EQ(e[2].duration, 0);
}

// The legacy task-level "period"/"deadline" never override dl-period/dl-deadline, whichever
// comes first in the file.
TEST(RtApp, LegacyPeriodAndDeadlineLoseToDlKeysInAnyOrder) {
  const workload w = parse_rtapp(R"({"tasks": {
      "p": {"policy": "SCHED_DEADLINE", "runtime": 1000, "dl-period": 10000, "period": 20000, "run": 1},
      "d": {"policy": "SCHED_DEADLINE", "runtime": 1000, "period": 10000, "dl-deadline": 5000, "deadline": 8000, "run": 1}}})");
  EXPECT_EQ(w.tasks[0].params.period, 10000000);
  EXPECT_EQ(w.tasks[1].params.period, 10000000);
  EXPECT_EQ(w.tasks[1].params.deadline, 5000000);
}

// A phase with scheduling fields but neither "policy" nor "priority" keeps the policy and the
// priority in force (rt-app's policy "same"): the nice value, the fair slice, the RT priority.
TEST(RtApp, PhaseKeepsThePriorityAndSliceInForce) {
  const workload nice = one(R"("priority": 5, "phases": {"a": {"dl-runtime": 500, "run": 1}})");
  const event& n = nice.tasks[0].phases[0].events.at(0);
  ASSERT_EQ(n.kind, event_kind::set_policy);
  EXPECT_EQ(n.params.kind, sched_kind::normal);
  EXPECT_EQ(n.params.nice, 5);
  EXPECT_EQ(n.params.runtime, 500000);
  const workload slice = one(R"("dl-runtime": 700, "phases": {"a": {"priority": 3, "run": 1}})");
  const event& s = slice.tasks[0].phases[0].events.at(0);
  EXPECT_EQ(s.params.nice, 3);
  EXPECT_EQ(s.params.runtime, 700000);
  const workload fifo = one(R"("policy": "SCHED_FIFO", "priority": 50, "phases": {"a": {"dl-runtime": 100, "run": 1}})");
  const event& f = fifo.tasks[0].phases[0].events.at(0);
  EXPECT_EQ(f.params.kind, sched_kind::fifo);
  EXPECT_EQ(f.params.rt_priority, 50);
}

// Every thread counts towards max_instances, those without "instance" (one each) too.
TEST(RtApp, TasksWithoutInstanceCountTowardsTheThreadLimit) {
  rtapp_options o;
  o.max_instances = 2;
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"a": {"run": 1}, "b": {"run": 1}}})", "w.json", o));
  try {
    parse_rtapp(R"({"tasks": {"a": {"run": 1}, "b": {"run": 1}, "c": {"run": 1}}})", "w.json", o);
    ADD_FAILURE() << "three threads passed a limit of 2";
  } catch (const rtapp_error& e) {
    EXPECT_EQ(std::string(e.what()), "w.json:1:46: task 'c': too many threads: more than the limit 2");
  }
}

// Instantaneous work: exactly 10^7 events is within the bound; a phase that alone passes it is
// named at its own key (not at the task's).
TEST(RtApp, InstantaneousWorkBoundIsInclusiveAndNamesThePhase) {
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {"t": {"loop": 10000000, "sleep": 0}}})"));
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"p": {"loop": 10000001, "sleep": 0}, "q": {"run": 1}}}}})", "1:29",
                     "task 't' phase 'p': 10000001 passes that take no simulated time bring the instantaneous events");
}

// A phase needs an event (or scheduling fields): a "loop" alone is an error at the phase.
TEST(RtApp, PhaseWithOnlyALoopIsRefused) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"phases": {"p": {"loop": 2}}}}})", "1:34",
                     "task 't' phase 'p': no events: expected at least one event");
}

// Phase-level taskgroup: "" means no taskgroup data (rt-app): the task stays where it is, no
// move; the report label is the task's own group, else the first phase's.
TEST(RtApp, PhaseTaskgroupEmptyStaysAndLabelIsTheTasks) {
  const workload stay = one(R"("taskgroup": "/a", "phases": {"p": {"taskgroup": "", "run": 1}})");
  EXPECT_EQ(stay.tasks[0].cgroup, "/a");
  for (const event& e : stay.tasks[0].phases[0].events) EXPECT_NE(e.kind, event_kind::set_cgroup);
  const workload moved = one(R"("taskgroup": "/a", "phases": {"p": {"taskgroup": "/b", "run": 1}, "q": {"taskgroup": "/c", "run": 1}})");
  EXPECT_EQ(moved.tasks[0].group, "/a");
  EXPECT_EQ(moved.tasks[0].phases[0].events.at(0).kind, event_kind::set_cgroup);
  const workload phase_only = one(R"("phases": {"p": {"taskgroup": "/b", "run": 1}, "q": {"taskgroup": "/c", "run": 1}})");
  EXPECT_EQ(phase_only.tasks[0].group, "/b");
}

// Task group paths (parse_taskgroup_data): up to cgroup_max_depth groups deep, every
// component a name (no "." or "..", no empty component).
TEST(RtApp, TaskgroupPathDepthAndComponents) {
  std::string deep;
  for (int i = 0; i < cgroup_max_depth; ++i) deep += "/d" + std::to_string(i);
  const workload w = one("\"taskgroup\": \"" + deep + "\", \"run\": 1");
  EXPECT_EQ(w.tasks[0].cgroup, deep);
  EXPECT_EQ(w.cgroups.size(), static_cast<std::size_t>(cgroup_max_depth));
  EXPECT_RTAPP_ERROR("{\"tasks\": {\"t\": {\"taskgroup\": \"" + deep + "/x\", \"run\": 1}}}", "1:31",
                     "nests more than " + std::to_string(cgroup_max_depth) + " task groups");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"taskgroup": "/a/./b", "run": 1}}})", "1:31", "'.' in '/a/./b': expected group names");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"taskgroup": "/a/../b", "run": 1}}})", "1:31", "'..' in '/a/../b': expected group names");
  EXPECT_RTAPP_ERROR(R"({"tasks": {"t": {"taskgroup": "/a//b", "run": 1}}})", "1:31", "an empty component in '/a//b'");
}

// A "sync" signals its condition, then waits on it (rt-app's tutorial): a wait whose only
// signallers are syncs is matched, as the cross-check's message promises. (Here b and d wake
// each other, and a, at every sync.)
TEST(RtApp, ASyncSignalsAWait) {
  EXPECT_NO_THROW(parse_rtapp(R"({"tasks": {
      "a": {"lock": "m", "wait": {"ref": "c", "mutex": "m"}, "unlock": "m", "run": 1},
      "b": {"run": 1, "lock": "m", "sync": {"ref": "c", "mutex": "m"}, "unlock": "m"},
      "d": {"run": 1, "lock": "m", "sync": {"ref": "c", "mutex": "m"}, "unlock": "m"}}})"));
}

// A template (instance 0) that nothing forks never runs, so it wakes nobody: a task whose only
// waker it is can never start.
TEST(RtApp, AnUnforkedTemplateWakesNobody) {
  EXPECT_RTAPP_ERROR(R"({"tasks": {"a": {"suspend": "a", "run": 1}, "z": {"instance": 0, "resume": "a", "run": 1}}})", "1:29",
                     "task 'a' can never get past this suspend on 'a': it is resumed only by 'z'");
}

// ----------------------------------------------------------------------------- end to end

TEST(RtAppRun, InstancesAreNamedAndEveryEventKindRuns) {
  const workload w = parse_rtapp(R"({
    "global": {"duration": 1},
    "tasks": {
      "producer": {"instance": 2, "loop": -1,
        "phases": {
          "a": {"run": 500, "runtime": 200, "resume": "cons", "lock": "m", "signal": "c", "unlock": "m",
                "timer": {"ref": "unique", "period": 5000}},
          "b": {"loop": 2, "sleep": 300, "yield", "mem": 4000, "iorun": 4000, "barrier": "bar",
                "timer": {"ref": "shared", "period": 10000, "mode": "absolute"}}
        }},
      "cons": {"suspend", "run": 100, "lock": "m", "wait": {"ref": "c", "mutex": "m"}, "unlock": "m", "fork": "child"},
      "child": {"instance": 0, "loop": 1, "run": 50}
    }
  })", "e2e.json");
  for (const policy_entry& p : {ref_entry(), rt_entry()}) {
    const run_result r = p.run(w, quick(msec(200)), {});
    std::vector<std::string> names;
    for (const auto& t : r.tasks) names.push_back(t.name);
    ASSERT_GE(names.size(), 3u);
    EXPECT_EQ(names[0], "producer-0");
    EXPECT_EQ(names[1], "producer-1");
    EXPECT_EQ(names[2], "cons-0");  // single instance is suffixed too (rt-app's convention)
    EXPECT_GT(r.tasks[0].cpu_ns, 0);
    EXPECT_GT(r.tasks[2].cpu_ns, 0);
  }
}

TEST(RtAppRun, DeadlineAndRtTasksRun) {
  const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {
      "dl": {"policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000, "run": 900, "timer": {"ref": "unique", "period": 10000}},
      "ff": {"policy": "SCHED_FIFO", "priority": 20, "run": 100, "sleep": 1000},
      "bg": {"run": 10000}}})", "w.json");
  const run_result r = rt_entry().run(w, quick(msec(100)), {});
  ASSERT_EQ(r.tasks.size(), 3u);
  for (const auto& t : r.tasks) EXPECT_GT(t.cpu_ns, 0) << t.name;
}

// rt-app's dl-runtime on a SCHED_OTHER task reaches the policy as its custom slice (Linux 6.12):
// two hogs on one CPU, "long" asking for 20 ms. Under eevdf long then runs 20 ms per turn, so
// "short" waits about 20 ms at a time (2-4 ticks without the slice); cfs, like kernels before
// 6.12, ignores the slice: the same run, task for task, as without it.
TEST(RtAppRun, DlRuntimeOnAFairTaskIsItsCustomSlice) {
  const auto file = [](bool slice) {
    return parse_rtapp(std::string(R"({"global": {"duration": 2}, "tasks": {"long": {"run": 1000000)") +
                           (slice ? R"(, "dl-runtime": 20000)" : "") + R"(}, "short": {"run": 1000000}}})",
                       "w.json");
  };
  const policy_entry eevdf = schedcore_test::eevdf_entry("eevdf", "eevdf");
  const policy_entry cfs = schedcore_test::cfs_entry("cfs", "cfs");
  const run_result with = eevdf.run(file(true), quick(sec(2)), {});
  const run_result without = eevdf.run(file(false), quick(sec(2)), {});
  ASSERT_EQ(with.tasks.size(), 2u);
  ASSERT_EQ(with.tasks[1].name, "short-0");
  EXPECT_GE(with.tasks[1].max_wait_ns, msec(19));
  EXPECT_LE(without.tasks[1].max_wait_ns, msec(5));
  for (const run_result* r : {&with, &without})  // equal weights: equal shares either way
    EXPECT_NEAR(static_cast<double>(r->tasks[0].cpu_ns) / static_cast<double>(r->tasks[1].cpu_ns), 1.0, 0.05);
  const run_result cfs_with = cfs.run(file(true), quick(sec(2)), {});
  const run_result cfs_without = cfs.run(file(false), quick(sec(2)), {});
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(cfs_with.tasks[i].cpu_ns, cfs_without.tasks[i].cpu_ns);
    EXPECT_EQ(cfs_with.tasks[i].switches, cfs_without.tasks[i].switches);
    EXPECT_EQ(cfs_with.tasks[i].max_wait_ns, cfs_without.tasks[i].max_wait_ns);
  }
}

run_config exact(std::int64_t ns) {
  run_config c = quick(ns);
  c.machine.cs_cost_ns = 0;
  c.machine.refill_ns = 0;
  return c;
}

const task_result& result_of(const run_result& r, const std::string& name) {
  for (const auto& t : r.tasks)
    if (t.name == name) return t;
  throw std::runtime_error("no task " + name);
}

// The oracle is rt-app's src/rt-app.c (thread_body, run_event's rtapp_timer case; commit
// bb7f052): every thread sets t_first = t_zero (the use case's start, shared by all threads)
// plus its "delay", once, before its first phase; a timer's first use sets its next expiry to
// t_first + period. So the first expiry is counted from the thread's start, not from the
// moment the timer is first reached (the tutorial: "the reference ... always consider the
// starting time of the first phase"). When that expiry has already passed, the overrun rule
// applies: "relative" restarts from now, "absolute" keeps the grid and catches up.
TEST(RtAppRun, TimersCountFromTheThreadStartPlusDelay) {
  const auto exit_of = [](const std::string& task) {
    const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {"t": {)" + task + "}}}", "w.json");
    const run_result r = ref_entry().run(w, exact(msec(500)), {});
    return result_of(r, "t-0");
  };
  // 5 ms of work per 10 ms period, 3 periods: expiries at 10, 20, 30 ms (not 15, 25, 35).
  EXPECT_EQ(exit_of(R"("loop": 3, "run": 5000, "timer": {"ref": "unique", "period": 10000})").exit_ns, msec(30));
  // With a 2 ms delay: t_first = 2 ms, expiries at 12, 22, 32 ms.
  EXPECT_EQ(exit_of(R"("loop": 3, "delay": 2000, "run": 5000, "timer": {"ref": "unique", "period": 10000})").exit_ns,
            msec(32));
  // First reached at 30 ms (25 ms of warm-up, then 5 ms of work), after the first expiry
  // (10 ms) has passed. Relative: restart from 30 ms, then expiries at 40 and 50 ms. Absolute:
  // the grid stays (10, 20, 30 ms), every pass finds its expiry passed and runs on at once:
  // 30-35, 35-40, exit at 40 ms.
  const std::string late = R"("loop": 1, "phases": {"warm": {"run": 25000},
      "periodic": {"loop": 3, "run": 5000, "timer": {"ref": "unique", "period": 10000)";
  const task_result rel = exit_of(late + "}}}");
  EXPECT_EQ(rel.exit_ns, msec(50));
  EXPECT_EQ(rel.slack.overruns, 0u);
  const task_result abs = exit_of(late + R"(, "mode": "absolute"}}})");
  EXPECT_EQ(abs.exit_ns, msec(40));
  EXPECT_EQ(abs.slack.overruns, 2u);  // 20 - 35 and 30 - 40 ms (the first use's slack is not kept)
}

// A relay thread that only waits and wakes the next one runs as in rt-app: every pass of the
// worker's 1 ms resumes the relay, which resumes the worker: 1000 passes each in 1 s.
TEST(RtAppRun, ARelayLoopOfWaitsRuns) {
  const workload w = parse_rtapp(
      R"({"global": {"duration": 1}, "tasks": {"relay": {"suspend": "relay", "resume": "worker"},
          "worker": {"run": 1000, "resume": "relay", "suspend": "worker"}}})", "w.json");
  const run_result r = ref_entry().run(w, exact(sec(1)), {});
  EXPECT_EQ(result_of(r, "worker-0").cpu_ns, sec(1));
  EXPECT_NEAR(static_cast<double>(result_of(r, "relay-0").switches), 1000.0, 2.0);
}

// A period-0 use of a relative timer moves its reference to now (rt-app's run_event: t_next +=
// 0, then, not before it, t_next = now): 2 ms of work, the period-0 use, a 3 ms sleep, the
// 10 ms use: the next expiry is 10 ms after the period-0 use, so a pass takes 12 ms, 10 passes
// 120 ms (dropping the use, as before, gave 100 ms). An absolute timer ignores it: 100 ms.
TEST(RtAppRun, APeriodZeroUseMovesARelativeTimersReference) {
  const auto exit_of = [](const std::string& mode) {
    const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {"t": {"loop": 10, "run": 2000,
        "timer0": {"ref": "t", "period": 0)" + mode + R"(}, "sleep": 3000, "timer1": {"ref": "t", "period": 10000}}}})",
                                   "w.json");
    return result_of(ref_entry().run(w, exact(msec(500)), {}), "t-0").exit_ns;
  };
  EXPECT_EQ(exit_of(""), msec(120));
  EXPECT_EQ(exit_of(R"(, "mode": "absolute")"), msec(100));
}

// A phase's scheduling fields are applied as the phase begins, and re-applying the same ones
// changes nothing: rt-app's set_thread_param returns at once when the phase's parameters are
// those in force (src/rt-app.c: "if (data->curr_sched_data == sched_data) return"), and the
// kernel's __sched_setscheduler returns early when nothing changes. So a phase that restates
// the task's own nice, looped 10^5 times, runs exactly as the same file without it (here it
// cost a reschedule per pass: 289 switches instead of 335 under cfs).
TEST(RtAppRun, RestatingTheParametersInForceChangesNothing) {
  const auto file = [](bool restate) {
    return parse_rtapp(std::string(R"({"global": {"duration": 1}, "tasks": {"a": {"phases": {"p": {"loop": 100000, )") +
                           (restate ? R"("priority": 0, )" : "") + R"("run": 100}}}, "b": {"run": 1000000}}})",
                       "w.json");
  };
  const policy_entry cfs = schedcore_test::cfs_entry("cfs", "cfs");
  ASSERT_EQ(file(true).tasks[0].phases[0].events[0].kind, event_kind::set_policy);
  const run_result with = cfs.run(file(true), quick(sec(1)), {});
  const run_result without = cfs.run(file(false), quick(sec(1)), {});
  ASSERT_EQ(with.tasks.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(with.tasks[i].cpu_ns, without.tasks[i].cpu_ns) << i;
    EXPECT_EQ(with.tasks[i].switches, without.tasks[i].switches) << i;
  }
}

// rt-app refuses a "cpus" index the machine does not have (src/rt-app_parse_config.c
// parse_cpuset_data: "Invalid cpu"). schedsim sizes the machine from the file, but --cpus can
// make it smaller: a task pinned only to missing CPUs then ran on any CPU, and one pinned to
// [1, 3] on two CPUs silently lost CPU 3. Both are errors now, naming the task's definition;
// so is a phase's "cpus" (which sizes the machine too).
TEST(RtAppRun, CpusBeyondTheMachineAreRefused) {
  for (const char* task : {R"("cpus": [3], "run": 1000, "sleep": 1000)", R"("phases": {"p": {"cpus": [3], "run": 1000, "sleep": 1000}})"}) {
    const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {"a": {)" + std::string(task) + "}}}", "w.json");
    EXPECT_EQ(w.cpus, 4) << task;
    run_config c = quick(msec(10));
    EXPECT_NO_THROW(ref_entry().run(w, c, {})) << task;
    c.cpus = 2;
    try {
      ref_entry().run(w, c, {});
      ADD_FAILURE() << "no error: " << task;
    } catch (const workload_error& e) {
      EXPECT_TRUE(e.positioned);
      EXPECT_EQ(std::string(e.what()).rfind("w.json:1:39: ", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find("CPU 3"), std::string::npos) << e.what();
    }
  }
}

// A phase's "cpus" is rt-app's set_thread_affinity as the phase begins (src/rt-app.c,
// thread_body; before its policy): the phase's cpus, else the task's, else every CPU (the
// affinity the thread started with). A task on a CPU its new affinity leaves out moves at once
// (the migration stopper) and waits there for its turn; one whose CPU is still allowed stays.
// Two CPUs, no switch cost; a FIFO hog pinned to CPU 0 runs 0-20 ms and another 26-46 ms.
// t (SCHED_OTHER) runs 5 ms per phase:
//  - phases [1], [0], none: on CPU 1 0-5 ms; moved to CPU 0 at 5, waits for the hog, runs
//    20-25; all CPUs then, but CPU 0 is one of them: it stays (no move) and runs 25-26; the
//    second hog preempts it there and the idle CPU 1 takes it at once (the idle-balance kick,
//    nohz_balancer_kick): exit at 30 ms, two migrations, one of them an affinity move;
//  - task cpus [1], phases [0], none: CPU 0 first (moved at 0), 20-25 ms after the hog; the
//    second phase goes back to the task's [1], not the [0] in force: it moves to CPU 1 and
//    exits at 30 ms (staying on CPU 0 it would wait for the second hog until 46 ms).
TEST(RtAppRun, PhaseCpusMoveTheThreadAsEachPhaseBegins) {
  const std::string hogs = R"("hog1": {"policy": "SCHED_FIFO", "cpus": [0], "loop": 1, "run": 20000},
      "hog2": {"policy": "SCHED_FIFO", "cpus": [0], "delay": 26000, "loop": 1, "run": 20000})";
  const auto run_t = [&](const std::string& t) {
    const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {)" + hogs + R"(, "t": {"loop": 1, )" + t + "}}}", "w.json");
    EXPECT_EQ(w.cpus, 2);
    return ref_entry().run(w, exact(msec(200)), {});
  };
  const run_result a = run_t(R"("phases": {"p1": {"cpus": [1], "run": 5000}, "p2": {"cpus": [0], "run": 5000}, "p3": {"run": 5000}})");
  {  // the trace names the move as the kernel's migration_cpu_stop does: CPU 1's stopper thread
    const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {)" + hogs +
                                       R"(, "t": {"loop": 1, "phases": {"p1": {"cpus": [1], "run": 5000}, "p2": {"cpus": [0], "run": 5000}, "p3": {"run": 5000}}}}})",
                                   "w.json");
    trace_writer tw;
    run_config c = exact(msec(200));
    c.trace = &tw;
    ref_entry().run(w, c, {});
    EXPECT_NE(tw.text().find("migration/1-101   [001] d..2     0.005000: sched_migrate_task: comm=t-0 pid="), std::string::npos)
        << tw.text().substr(0, 3000);
  }
  EXPECT_EQ(result_of(a, "t-0").max_wait_ns, msec(15)) << "moved to CPU 0 at 5 ms, it waits for the hog until 20 ms";
  EXPECT_EQ(result_of(a, "t-0").exit_ns, msec(30));
  EXPECT_EQ(result_of(a, "t-0").migrations, 2u);
  EXPECT_EQ(a.totals.affinity_moves, 1u) << "the third phase widens the affinity: no move";
  const run_result b = run_t(R"("cpus": [1], "phases": {"p1": {"cpus": [0], "run": 5000}, "p2": {"run": 5000}})");
  EXPECT_EQ(result_of(b, "t-0").exit_ns, msec(30));
  EXPECT_EQ(result_of(b, "t-0").max_wait_ns, msec(20));
  EXPECT_EQ(b.totals.affinity_moves, 2u);
  EXPECT_EQ(result_of(b, "t-0").migrations, 2u);
  // Without phase cpus nothing moves: on CPU 1 throughout, 15 ms of work, exit at 15 ms.
  const run_result c = run_t(R"("cpus": [1], "phases": {"p1": {"run": 5000}, "p2": {"run": 10000}})");
  EXPECT_EQ(result_of(c, "t-0").exit_ns, msec(15));
  EXPECT_EQ(c.totals.affinity_moves, 0u);
}

// Trace lines as the kernel writes them (found by checking traces against the JSON): a slack
// of -500 ns is an overrun, -1 us rounded down (C++'s division printed 0); a timer's wakeup is
// traced on the CPU the sleeper's timer interrupted, with the interrupted task as current (it
// was traced on the target CPU, by its idle task); the stopper's move follows the switch away
// from the task it moves (it came first, while the task still ran); a sched_yield switch is
// R (voluntary), not R+ (preempted).
TEST(RtAppRun, TraceLinesComeInTheKernelsOrderFromTheKernelsCpus) {
  const auto trace_of = [](const std::string& tasks, int cpus, std::int64_t ns, std::int64_t cs_cost = 0) {
    trace_writer tw;
    run_config c = exact(ns);
    c.cpus = cpus;
    c.machine.cs_cost_ns = cs_cost;
    c.trace = &tw;
    rt_entry().run(parse_rtapp(R"({"global": {"duration": 1}, "tasks": {)" + tasks + "}}", "w.json"), c, {});
    return tw.text();
  };
  // The 1 ms run ends 500 ns late (the switch cost): slack -0.5 µs rounds down to -1, and the
  // marker's time, 2.0005 ms, prints as 0.002001 (ftrace rounds to the nearest µs).
  const std::string slack = trace_of(R"("p": {"loop": -1, "timer": {"ref": "t", "period": 1000}, "run": 1000})", 1, msec(5), 500);
  EXPECT_NE(slack.find("0.002001: tracing_mark_write: C|1000|slack_us|-1\n"), std::string::npos) << slack;
  const std::string irq = trace_of(R"("hog": {"cpus": [0], "loop": -1, "delay": 500, "run": 100000},
      "t": {"loop": 1, "run": 200, "sleep": 1000, "run1": 200})", 2, msec(3));
  EXPECT_NE(irq.find("hog-0-1000  [000] d..2     0.001200: sched_waking: comm=t-0 pid=1001 prio=120 target_cpu=001"),
            std::string::npos) << irq;
  const std::string hop = trace_of(R"("hop": {"loop": 1, "phases": {"a": {"cpus": [0], "run": 1000}, "b": {"cpus": [1], "run": 1000}}})",
                                   2, msec(10));
  const std::size_t out = hop.find("0.001000: sched_switch: prev_comm=hop-0 prev_pid=1000 prev_prio=120 prev_state=R+");
  const std::size_t moved = hop.find("migration/0-100   [000] d..2     0.001000: sched_migrate_task: comm=hop-0");
  ASSERT_NE(out, std::string::npos) << hop;
  ASSERT_NE(moved, std::string::npos) << hop;
  EXPECT_LT(out, moved);
  const std::string yield = trace_of(R"("y": {"instance": 2, "loop": 3, "run": 100, "yield"})", 1, msec(5));
  EXPECT_NE(yield.find("prev_comm=y-0 prev_pid=1000 prev_prio=120 prev_state=R ==> next_comm=y-1"), std::string::npos) << yield;
  EXPECT_EQ(yield.find("prev_state=R+"), std::string::npos) << yield;
}

// A forked thread's "delay" counts from the use case's start, like everyone's: rt-app's
// thread_body sets t_first = t_zero + delay and sleeps until then (absolute), forked or not
// (src/rt-app.c). Forked at 1 ms with a 50 ms delay, the child starts at 50 ms; forked at 60 ms,
// after its delay, it starts at once. schedsim started a forked child at the fork, whatever
// its delay.
TEST(RtAppRun, AForkedThreadsDelayCountsFromTheStart) {
  const auto child_start = [](int parent_sleep_us) {
    const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {
        "parent": {"loop": 1, "sleep": )" + std::to_string(parent_sleep_us) + R"(, "run": 1000, "fork": "child", "sleep1": 100000},
        "child": {"instance": 0, "delay": 50000, "loop": 1, "run": 1000}}})", "w.json");
    const run_result r = ref_entry().run(w, exact(msec(300)), {});
    return result_of(r, "child-0").start_ns;
  };
  EXPECT_EQ(child_start(0), msec(50));
  EXPECT_EQ(child_start(60000), msec(61));
}

std::string shared_dir() {
  std::string f = __FILE__;  // .../tests/unit/sim_rtapp_test.cpp
  for (int i = 0; i < 3; ++i) f = f.substr(0, f.find_last_of('/'));
  return f + "/../shared/workloads/rt-app/";
}

// rt-app's suspend/resume and wait/signal/broad/sync name the same conditions (and suspend and
// resume lock the mutex of the name): a resume wakes a wait, a signal wakes a suspend. Before,
// the two families were separate and this file was refused ("no task signals 'q'").
TEST(RtAppRun, SuspendAndResumeShareTheirNamesWithConditions) {
  const workload w = parse_rtapp(R"({"global": {"duration": 1}, "tasks": {
      "waiter": {"loop": 1, "lock": "q", "wait": {"ref": "q", "mutex": "q"}, "unlock": "q", "run": 1000},
      "sleeper": {"loop": 1, "suspend": "q", "run": 2000},
      "resumer": {"loop": 1, "sleep": 10000, "resume": "q"},
      "suspended": {"loop": 1, "suspend", "run": 3000},
      "signaller": {"loop": 1, "sleep": 20000, "lock": "suspended", "signal": "suspended", "unlock": "suspended"}}})",
                                 "w.json");
  const run_result r = rt_entry().run(w, exact(msec(100)), {});
  EXPECT_EQ(result_of(r, "waiter-0").cpu_ns, msec(1));  // woken by the resume
  EXPECT_EQ(result_of(r, "sleeper-0").cpu_ns, msec(2));
  EXPECT_EQ(result_of(r, "suspended-0").cpu_ns, msec(3));  // woken by the signal
}

// rt-app's run times are its calibration CPU's (it times its loop there, CPU0 unless
// "calibration" says "CPUn"): on a 446/1024 machine a 10 ms run on CPU0's scale is 4.355 ms of
// the big CPU, and on CPU1's scale 22.96 ms of the little one. A number of ns per loop names no
// CPU: work at the biggest CPU's speed.
TEST(RtAppRun, RunTimesAreTheCalibrationCpus) {
  const auto file = [](const std::string& calibration) {
    return parse_rtapp(R"({"global": {"duration": 1)" + calibration + R"(}, "tasks": {
        "little": {"loop": 1, "cpus": [0], "run": 10000}, "big": {"loop": 1, "cpus": [1], "run": 10000}}})",
                       "w.json");
  };
  run_config asym = exact(msec(100));
  asym.machine.capacity = {446, 1024};
  const auto cpu_of = [&](const workload& w, const run_config& c) {
    const run_result r = rt_entry().run(w, c, {});
    return std::make_pair(result_of(r, "little-0").cpu_ns, result_of(r, "big-0").cpu_ns);
  };
  for (const char* cal : {"", R"(, "calibration": "CPU0")"}) {
    const auto [little, big] = cpu_of(file(cal), asym);
    EXPECT_NEAR(static_cast<double>(little), 10000000.0, 2.0) << cal;
    EXPECT_EQ(big, 4355469) << cal;  // 10 ms x 446 / 1024, to the nearest ns
  }
  for (const char* cal : {R"(, "calibration": "CPU1")", R"(, "calibration": 150)"}) {
    const auto [little, big] = cpu_of(file(cal), asym);
    EXPECT_EQ(little, 22959642) << cal;  // 10 ms x 1024 / 446, rounded up to finish the work
    EXPECT_EQ(big, msec(10)) << cal;
  }
  const auto [little, big] = cpu_of(file(""), exact(msec(100)));  // symmetric: nothing to scale
  EXPECT_EQ(little, msec(10));
  EXPECT_EQ(big, msec(10));
  // The calibration CPU must be one of the machine's, as rt-app pins itself to it.
  run_config two = exact(msec(100));
  two.cpus = 2;
  EXPECT_THROW(rt_entry().run(file(R"(, "calibration": "CPU3")"), two, {}), workload_error);
}

TEST(RtAppRun, EverySharedFileImportsAndRuns) {
  const char* files[] = {"browser-short.json",     "mp3-short.json",         "template.json",
                         "tutorial-example1.json", "tutorial-example2.json", "tutorial-example3.json",
                         "tutorial-example4.json", "tutorial-example5.json", "tutorial-example6.json",
                         "video-short.json"};
  if (!std::ifstream(shared_dir() + files[0]).good()) GTEST_SKIP() << "no " << shared_dir() << " (ctest sim/rtapp/corpus checks it)";
  for (const char* f : files) {
    workload w;
    std::string err;
    ASSERT_EQ(load_rt_app(shared_dir() + f, w, err), 0) << err;
    EXPECT_EQ(w.name, f);
    EXPECT_FALSE(w.tasks.empty());
    const run_result r = rt_entry().run(w, quick(sec(1)), {});
    // Every thread whose program does work gets some within the second: a thread that never
    // runs is one the import left blocked for good (video-short's NuPlayerDriver and codec
    // threads did, while suspend/resume and sync kept separate names).
    for (const task_spec& ts : w.tasks) {
      bool works = false;
      for (const phase& ph : ts.phases)
        for (const event& e : ph.events) works = works || (e.kind == event_kind::run && e.duration > 0);
      if (!works || ts.instances == 0) continue;
      for (int i = 0; i < ts.instances; ++i)
        EXPECT_GT(result_of(r, ts.name + "-" + std::to_string(i)).cpu_ns, 0) << f << ": " << ts.name;
    }
  }
}

TEST(RtAppLoad, FileErrors) {
  workload w;
  std::string err;
  EXPECT_EQ(load_rt_app("/nonexistent/x.json", w, err), 3);
  EXPECT_EQ(err, "/nonexistent/x.json: cannot open: No such file or directory");
  EXPECT_EQ(load_rt_app("/", w, err), 3);
  EXPECT_NE(err.find("cannot read"), std::string::npos) << err;
  EXPECT_THROW(load_rtapp("/nonexistent/x.json"), rtapp_error);
}

// load_rtapp's size limit: a file of exactly max_file_bytes loads; one byte more is refused at
// the line and column where the limit is reached (here past the 18th byte of line 2).
TEST(RtAppLoad, FileSizeLimitIsInclusiveAndPlaced) {
  const std::string text = "{\"tasks\":\n {\"t\": {\"run\": 1}}}";  // 29 bytes
  ASSERT_EQ(text.size(), 29u);
  const std::string path = ::testing::TempDir() + "sim_rtapp_test_size_limit.json";
  {
    std::ofstream f(path, std::ios::binary);
    f << text;
  }
  rtapp_options o;
  o.max_file_bytes = 29;
  EXPECT_NO_THROW(load_rtapp(path, o));
  o.max_file_bytes = 28;
  try {
    load_rtapp(path, o);
    ADD_FAILURE() << "a 29-byte file passed a 28-byte limit";
  } catch (const rtapp_error& e) {
    EXPECT_EQ(std::string(e.what()), path + ":2:19: file too large: more than 28 bytes (the limit is reached here)");
  }
  std::remove(path.c_str());
}

}  // namespace
