// Each policy guide's "Knobs (`knob_table`)" table is the policy's knob_table, row by row: the
// same knobs in the same order, the unit, the default (a default-constructed `knobs`), the
// accepted range and the meaning, word for word (code spans and en dashes aside). The guides were written by hand beside the
// headers; a knob added, renamed or re-bounded in one and not the other fails here.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "schedcore/policy/bfs.hpp"
#include "schedcore/policy/cfs.hpp"
#include "schedcore/policy/cfs2007.hpp"
#include "schedcore/policy/edf.hpp"
#include "schedcore/policy/eevdf.hpp"
#include "schedcore/policy/goodness24.hpp"
#include "schedcore/policy/nicksched.hpp"
#include "schedcore/policy/o1.hpp"
#include "schedcore/policy/rt.hpp"
#include "schedcore/policy/sd.hpp"

namespace {

using namespace schedcore;

struct guide_row {
  int line = 0;
  std::string name, unit, def, range, meaning;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

// The rows of the table under the "| knob | unit | default | range | meaning |" header.
std::vector<guide_row> knob_rows(const std::string& guide) {
  std::ifstream in(std::string(SCHEDCORE_DOCS_DIR) + "/guides/" + guide);
  EXPECT_TRUE(in) << "cannot read docs/guides/" << guide;
  std::vector<guide_row> rows;
  std::string line;
  int number = 0;
  bool in_table = false;
  while (std::getline(in, line)) {
    ++number;
    if (line == "| knob | unit | default | range | meaning |") {
      EXPECT_FALSE(in_table) << guide << ":" << number << ": a second knob table";
      in_table = true;
      std::getline(in, line);  // |---|...
      ++number;
      continue;
    }
    if (!in_table) continue;
    if (line.empty() || line[0] != '|') break;
    std::vector<std::string> cells;
    std::stringstream cut(line.substr(1));
    std::string cell;
    while (std::getline(cut, cell, '|')) cells.push_back(trim(cell));
    EXPECT_EQ(cells.size(), 5u) << guide << ":" << number << ": " << line;
    if (cells.size() != 5) continue;
    guide_row r;
    r.line = number;
    r.name = cells[0];
    r.unit = cells[1];
    r.def = cells[2];
    r.range = cells[3];
    r.meaning = cells[4];
    rows.push_back(r);
  }
  return rows;
}

// A value as the guides write it: "-1", "95", "6 ms", "750 µs", "1 s", "2^22 µs (≈ 4.19 s)".
// Returns false when the text is not one.
bool guide_value(std::string text, std::int64_t& out) {
  const auto paren = text.find(" (");
  if (paren != std::string::npos) text = text.substr(0, paren);
  text = trim(text);
  const auto space = text.find(' ');
  const std::string number = text.substr(0, space);
  const std::string unit = space == std::string::npos ? "" : text.substr(space + 1);
  std::int64_t v = 0;
  if (number.rfind("2^", 0) == 0) {
    v = std::int64_t{1} << std::stoi(number.substr(2));
  } else {
    std::size_t used = 0;
    v = std::stoll(number, &used);
    if (used != number.size()) return false;
  }
  std::int64_t mult = 1;
  if (unit.empty() || unit == "ns") mult = 1;
  else if (unit == "µs" || unit == "us") mult = 1000;
  else if (unit == "ms") mult = 1000000;
  else if (unit == "s") mult = 1000000000;
  else return false;
  out = v * mult;
  return true;
}

const char* unit_word(knob_unit u) {
  switch (u) {
    case knob_unit::time_ns: return "ns";
    case knob_unit::count: return "count";
    case knob_unit::flag: return "flag";
  }
  return "?";
}

template <class Policy>
void expect_guide_matches(const std::string& guide) {
  using knobs = typename Policy::knobs;
  const knobs defaults{};
  const std::vector<guide_row> rows = knob_rows(guide);
  const auto& table = Policy::knob_table;
  const std::size_t n = sizeof(table) / sizeof(table[0]);
  ASSERT_EQ(rows.size(), n) << guide << ": the table has " << rows.size() << " knobs, knob_table " << n;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& k = table[i];
    const guide_row& r = rows[i];
    const std::string at = guide + ":" + std::to_string(r.line) + " (" + k.name + ")";
    EXPECT_EQ(r.name, std::string("`") + k.name + "`") << at;
    // "count (%)": the word before a parenthesis.
    EXPECT_EQ(r.unit.substr(0, r.unit.find(' ')), unit_word(k.unit)) << at;
    std::int64_t def = 0, lo = 0, hi = 0;
    EXPECT_TRUE(guide_value(r.def, def)) << at << ": default '" << r.def << "'";
    EXPECT_EQ(def, defaults.*(k.field)) << at << ": default '" << r.def << "'";
    const auto dots = r.range.find(" .. ");
    ASSERT_NE(dots, std::string::npos) << at << ": range '" << r.range << "'";
    EXPECT_TRUE(guide_value(r.range.substr(0, dots), lo) && guide_value(r.range.substr(dots + 4), hi))
        << at << ": range '" << r.range << "'";
    EXPECT_EQ(lo, k.min) << at << ": range '" << r.range << "'";
    EXPECT_EQ(hi, k.max) << at << ": range '" << r.range << "'";
    // The guides typeset ranges of years with an en dash where the help has a hyphen, and names
    // in code spans.
    std::string meaning = r.meaning;
    for (std::size_t p; (p = meaning.find("\xe2\x80\x93")) != std::string::npos;) meaning.replace(p, 3, "-");
    for (std::size_t p; (p = meaning.find('`')) != std::string::npos;) meaning.erase(p, 1);
    EXPECT_EQ(meaning, k.help) << at;
  }
}

struct bfs_task : bfs_entity {};
struct cfs_task : cfs_entity {};
struct cfs2007_task : cfs2007_entity {};
struct edf_task : edf_entity {};
struct eevdf_task : eevdf_entity {};
struct goodness24_task : goodness24_entity {};
struct nicksched_task : nicksched_entity {};
struct o1_task : o1_entity {};
struct rt_task : rt_entity {};
struct sd_task : sd_entity {};

TEST(GuideKnobTables, Bfs) { expect_guide_matches<bfs_policy<bfs_task>>("policy-bfs.md"); }
TEST(GuideKnobTables, Cfs) { expect_guide_matches<cfs_policy<cfs_task>>("policy-cfs.md"); }
TEST(GuideKnobTables, Cfs2007) { expect_guide_matches<cfs2007_policy<cfs2007_task>>("policy-cfs2007.md"); }
TEST(GuideKnobTables, Edf) { expect_guide_matches<edf_policy<edf_task>>("policy-edf.md"); }
TEST(GuideKnobTables, Eevdf) { expect_guide_matches<eevdf_policy<eevdf_task>>("policy-eevdf.md"); }
TEST(GuideKnobTables, Goodness24) { expect_guide_matches<goodness24_policy<goodness24_task>>("policy-goodness24.md"); }
TEST(GuideKnobTables, Nicksched) { expect_guide_matches<nicksched_policy<nicksched_task>>("policy-nicksched.md"); }
TEST(GuideKnobTables, O1) { expect_guide_matches<o1_policy<o1_task>>("policy-o1.md"); }
TEST(GuideKnobTables, Rt) { expect_guide_matches<rt_policy<rt_task>>("policy-rt.md"); }
TEST(GuideKnobTables, Sd) { expect_guide_matches<sd_policy<sd_task>>("policy-sd.md"); }

// The parser the comparison rests on reads the guides' forms, and refuses what is not a value.
TEST(GuideKnobTables, GuideValuesParse) {
  std::int64_t v = 0;
  ASSERT_TRUE(guide_value("6 ms", v));
  EXPECT_EQ(v, 6000000);
  ASSERT_TRUE(guide_value("750 µs", v));
  EXPECT_EQ(v, 750000);
  ASSERT_TRUE(guide_value("-1", v));
  EXPECT_EQ(v, -1);
  ASSERT_TRUE(guide_value("2^22 µs (≈ 4.19 s)", v));
  EXPECT_EQ(v, std::int64_t{4194304000});
  EXPECT_FALSE(guide_value("6 fortnights", v));
  EXPECT_FALSE(guide_value("6ms", v));
}

}  // namespace
