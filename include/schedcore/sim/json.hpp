/// @file
/// @brief HOSTED. A small JSON reader for workload files, as lenient as rt-app's own input
/// chain (json-c behind workgen) and strict everywhere else.
///
/// @par Accepted beyond RFC 8259 (each one occurs in real rt-app files)
/// - comments: `/* ... */` and `// ...` (to the end of the line), anywhere whitespace may be;
/// - trailing commas: `{"a": 1,}` and `[1, 2,]`;
/// - repeated keys: an object is an *ordered list* of members, duplicates kept in file order
///   (rt-app phases repeat `"run"`); `find()` returns the first, callers iterate for all;
/// - bare members: a key with no value, `{"suspend", "run": 10}` (rt-app's workgen accepts
///   them; the member's value has type `none`); can be turned off (`parse_options`);
/// - single-quoted strings `'text'` (json-c accepts them);
/// - a UTF-8 byte order mark at the start of the file.
///
/// @par Refused, with `file:line:column: message` naming what was expected
/// Missing commas or colons, unterminated strings and comments, control characters inside
/// strings, bad escapes, `NaN`/`Infinity`/hex/leading `+`, leading zeros (`010`: decimal to
/// some readers, octal to C), bare words other than `true`, `false` and `null`, trailing
/// garbage after the top-level value, nesting deeper than `parse_options::max_depth` and more
/// than `parse_options::max_values` values (so a hostile file cannot exhaust the stack or
/// memory). Lines and columns count from 1; a column counts bytes (a tab is one column).
///
/// @par Numbers
/// Every number keeps its literal text. A literal without fraction or exponent that fits a
/// signed 64-bit integer has `is_int` set and its value in `i`; every number also has its
/// `double` value in `d` (`inf` when it overflows a double). `as_int()` accepts integral
/// doubles too (`1e3` is 1000), as json-c does.
#ifndef SCHEDCORE_SIM_JSON_HPP
#define SCHEDCORE_SIM_JSON_HPP

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace schedcore {
namespace sim {
namespace json {

/// A place in the source text: 1-based line and column (column counts bytes).
struct position {
  std::uint32_t line = 0;    ///< 1-based line (0 = unknown)
  std::uint32_t column = 0;  ///< 1-based byte column
};

/// `"LINE:COLUMN"`.
inline std::string to_string(position p) { return std::to_string(p.line) + ":" + std::to_string(p.column); }

/// The type of a JSON value. `none` is the value of a bare member (`"suspend",`).
enum class type : std::uint8_t { null, boolean, number, string, array, object, none };

/// "an object", "a string", ... for messages.
inline const char* describe(type t) {
  switch (t) {
    case type::null: return "null";
    case type::boolean: return "a boolean";
    case type::number: return "a number";
    case type::string: return "a string";
    case type::array: return "an array";
    case type::object: return "an object";
    case type::none: return "no value (a bare key)";
  }
  return "a value";
}

/// One JSON value. Objects and arrays keep their children in `items`, in file order; a child
/// of an object also carries its `key` and `key_pos`.
struct value {
  type t = type::null;        ///< what this is
  position pos;               ///< where the value starts (a bare member: where its key starts)
  bool b = false;             ///< boolean: the value
  bool is_int = false;        ///< number: written as an integer that fits int64 (`i` is exact)
  std::int64_t i = 0;         ///< number: the integer value when `is_int`
  double d = 0;               ///< number: the value as a double (inf on overflow)
  std::string s;              ///< string: the decoded text; number: the literal as written
  std::vector<value> items;   ///< array elements, or object members (duplicates kept, in order)
  std::string key;            ///< as a member of an object: its key
  position key_pos;           ///< as a member of an object: where its key starts

  bool is_object() const { return t == type::object; }  ///< `t` is type::object
  bool is_array() const { return t == type::array; }    ///< `t` is type::array
  bool is_string() const { return t == type::string; }  ///< `t` is type::string
  bool is_number() const { return t == type::number; }  ///< `t` is type::number
  bool is_bool() const { return t == type::boolean; }   ///< `t` is type::boolean
  bool is_none() const { return t == type::none; }      ///< `t` is type::none (a bare member)

  /// The first member named `k` (objects only), or nullptr.
  const value* find(std::string_view k) const {
    if (t != type::object) return nullptr;
    for (const value& m : items)
      if (m.key == k) return &m;
    return nullptr;
  }
  /// How many members are named `k`.
  std::size_t count(std::string_view k) const {
    std::size_t n = 0;
    if (t == type::object)
      for (const value& m : items) n += m.key == k ? 1u : 0u;
    return n;
  }
  /// The number as an exact int64: integer literals, and doubles that are whole numbers in
  /// range (json-c's leniency). False for non-numbers, fractions and out-of-range values.
  bool as_int(std::int64_t& out) const {
    if (t != type::number) return false;
    if (is_int) {
      out = i;
      return true;
    }
    // 2^63 is exactly representable; every double below it in magnitude converts exactly.
    if (!std::isfinite(d) || d != std::floor(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0)
      return false;
    out = static_cast<std::int64_t>(d);
    return true;
  }
};

/// A syntax error: `what()` is `"FILE:LINE:COLUMN: message"`.
class error : public std::runtime_error {
 public:
  /// The error `message` at `p` in `file`.
  error(const std::string& file, position p, const std::string& message)
      : std::runtime_error(file + ":" + to_string(p) + ": " + message), pos_(p), message_(message) {}
  /// Where the error is.
  position where() const { return pos_; }
  /// The message without the location.
  const std::string& message() const { return message_; }

 private:
  position pos_;
  std::string message_;
};

/// Reader limits and leniencies.
struct parse_options {
  unsigned max_depth = 64;           ///< deepest nesting of objects/arrays (rt-app files use <= 6)
  std::size_t max_values = 1000000;  ///< most values in one file (bounds memory: ~130 bytes each)
  bool allow_bare_members = true;    ///< accept `"key",` members without a value (type none)
  bool allow_single_quotes = true;   ///< accept `'strings'` (json-c does)
};

namespace detail_json {

class parser {
 public:
  parser(std::string_view text, const std::string& file, const parse_options& o) : s_(text), file_(file), o_(o) {}

  value run() {
    if (s_.size() >= 3 && static_cast<unsigned char>(s_[0]) == 0xEF && static_cast<unsigned char>(s_[1]) == 0xBB &&
        static_cast<unsigned char>(s_[2]) == 0xBF) {
      i_ = 3;
      line_start_ = 3;
    }
    skip_ws();
    if (eof()) fail(here(), "expected a JSON value, got end of file (empty file?)");
    value v = parse_value(0);
    skip_ws();
    if (!eof()) fail(here(), "expected end of file after the top-level value, got " + show_char());
    return v;
  }

 private:
  std::string_view s_;
  const std::string& file_;
  const parse_options& o_;
  std::size_t i_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
  std::size_t nvalues_ = 0;

  [[noreturn]] void fail(position p, const std::string& msg) const { throw error(file_, p, msg); }

  bool eof() const { return i_ >= s_.size(); }
  char peek() const { return s_[i_]; }
  position here() const {
    const std::size_t col = i_ - line_start_ + 1;
    return position{line_, col > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(col)};
  }
  void bump() {
    if (s_[i_] == '\n') {
      if (line_ < 0xFFFFFFFFu) ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }
  std::string show_char() const {
    if (eof()) return "end of file";
    const unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
    static const char hex[] = "0123456789abcdef";
    return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
  }

  void skip_ws() {
    while (!eof()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        bump();
      } else if (c == '/') {
        const position start = here();
        if (i_ + 1 >= s_.size() || (s_[i_ + 1] != '/' && s_[i_ + 1] != '*'))
          fail(start, "expected a comment ('//' or '/*') after '/'");
        if (s_[i_ + 1] == '/') {
          while (!eof() && peek() != '\n') bump();
        } else {
          bump();
          bump();
          for (;;) {
            if (eof()) fail(start, "unterminated comment: '/*' without '*/'");
            if (peek() == '*' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
              bump();
              bump();
              break;
            }
            bump();
          }
        }
      } else {
        break;
      }
    }
  }

  void count_value(position p) {
    if (++nvalues_ > o_.max_values)
      fail(p, "too many JSON values (more than " + std::to_string(o_.max_values) +
                  "): the file is too large for a workload");
  }

  value parse_value(unsigned depth) {
    const position p = here();
    if (eof()) fail(p, "expected a value, got end of file");
    count_value(p);
    const char c = peek();
    if (c == '{' || c == '[') {
      if (depth >= o_.max_depth)
        fail(p, "nesting deeper than " + std::to_string(o_.max_depth) + " levels of objects/arrays");
      return c == '{' ? parse_object(depth + 1) : parse_array(depth + 1);
    }
    if (c == '"' || (c == '\'' && o_.allow_single_quotes)) {
      value v;
      v.t = type::string;
      v.pos = p;
      v.s = parse_string();
      return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
      std::size_t j = i_;
      while (j < s_.size() && ((s_[j] >= 'a' && s_[j] <= 'z') || (s_[j] >= 'A' && s_[j] <= 'Z') ||
                               (s_[j] >= '0' && s_[j] <= '9') || s_[j] == '_'))
        ++j;
      const std::string_view w = s_.substr(i_, j - i_);
      value v;
      v.pos = p;
      if (w == "true" || w == "false") {
        v.t = type::boolean;
        v.b = w == "true";
      } else if (w == "null") {
        v.t = type::null;
      } else {
        fail(p, "unexpected bare word '" + std::string(w.substr(0, 40)) +
                    "': expected a value (a \"string\", a number, an object, an array, true, false or null)");
      }
      while (i_ < j) bump();
      return v;
    }
    fail(p, "expected a value (a \"string\", a number, an object, an array, true, false or null), got " +
                show_char());
  }

  value parse_object(unsigned depth) {
    value v;
    v.t = type::object;
    v.pos = here();
    bump();  // '{'
    for (;;) {
      skip_ws();
      if (eof()) fail(here(), "unexpected end of file: expected a key or '}' (object opened at " + to_string(v.pos) + ")");
      if (peek() == '}') {
        bump();
        return v;
      }
      const position kp = here();
      if (peek() != '"' && !(peek() == '\'' && o_.allow_single_quotes))
        fail(kp, "expected a \"key\" or '}', got " + show_char());
      std::string key = parse_string();
      skip_ws();
      value m;
      if (!eof() && peek() == ':') {
        bump();
        skip_ws();
        m = parse_value(depth);
      } else if (o_.allow_bare_members && !eof() && (peek() == ',' || peek() == '}')) {
        count_value(kp);
        m.t = type::none;
        m.pos = kp;
      } else if (eof()) {
        fail(here(), "unexpected end of file: expected ':' after key \"" + key + "\" (object opened at " +
                         to_string(v.pos) + ")");
      } else {
        fail(here(), "expected ':' after key \"" + key + "\", got " + show_char());
      }
      m.key = std::move(key);
      m.key_pos = kp;
      v.items.push_back(std::move(m));
      skip_ws();
      if (eof())
        fail(here(), "unexpected end of file: expected ',' or '}' (object opened at " + to_string(v.pos) + ")");
      if (peek() == ',') {
        bump();
        continue;
      }
      if (peek() == '}') {
        bump();
        return v;
      }
      fail(here(), "expected ',' or '}' after the member \"" + v.items.back().key + "\", got " + show_char());
    }
  }

  value parse_array(unsigned depth) {
    value v;
    v.t = type::array;
    v.pos = here();
    bump();  // '['
    for (;;) {
      skip_ws();
      if (eof()) fail(here(), "unexpected end of file: expected a value or ']' (array opened at " + to_string(v.pos) + ")");
      if (peek() == ']') {
        bump();
        return v;
      }
      if (peek() == ',') fail(here(), "expected a value or ']', got ','");
      v.items.push_back(parse_value(depth));
      skip_ws();
      if (eof())
        fail(here(), "unexpected end of file: expected ',' or ']' (array opened at " + to_string(v.pos) + ")");
      if (peek() == ',') {
        bump();
        continue;
      }
      if (peek() == ']') {
        bump();
        return v;
      }
      fail(here(), "expected ',' or ']' after an array element, got " + show_char());
    }
  }

  static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  unsigned parse_hex4(position esc) {
    unsigned u = 0;
    for (int k = 0; k < 4; ++k) {
      if (eof()) fail(esc, "unterminated \\u escape: expected 4 hex digits");
      const int h = hexval(peek());
      if (h < 0) fail(here(), "bad \\u escape: expected a hex digit, got " + show_char());
      u = (u << 4) | static_cast<unsigned>(h);
      bump();
    }
    return u;
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string parse_string() {
    const position open = here();
    const char q = peek();
    bump();
    std::string out;
    for (;;) {
      if (eof()) fail(open, std::string("unterminated string: expected a closing ") + (q == '"' ? "'\"'" : "\"'\""));
      const char c = peek();
      if (c == q) {
        bump();
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        if (c == '\n')
          fail(here(), std::string("unterminated string (opened at ") + to_string(open) + "): newline before the closing quote");
        fail(here(), "control character (" + show_char() + ") inside a string: write it as an escape");
      }
      if (c != '\\') {
        out += c;
        bump();
        continue;
      }
      const position esc = here();
      bump();
      if (eof()) fail(esc, "unterminated escape sequence at end of file");
      const char e = peek();
      bump();
      switch (e) {
        case '"': out += '"'; break;
        case '\'': out += '\''; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = parse_hex4(esc);
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
              bump();
              bump();
              const unsigned lo = parse_hex4(esc);
              if (lo < 0xDC00 || lo > 0xDFFF) fail(esc, "bad \\u escape: a high surrogate must be followed by a low one");
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              fail(esc, "bad \\u escape: a lone high surrogate");
            }
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail(esc, "bad \\u escape: a lone low surrogate");
          }
          put_utf8(out, cp);
          break;
        }
        default:
          fail(esc, std::string("bad escape '\\") + (static_cast<unsigned char>(e) >= 0x20 && e != 0x7F ? e : '?') +
                        "': expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
      }
    }
  }

  value parse_number() {
    value v;
    v.t = type::number;
    v.pos = here();
    const std::size_t b = i_;
    bool integral = true;
    if (peek() == '-') bump();
    if (eof() || peek() < '0' || peek() > '9') fail(here(), "expected a digit in a number, got " + show_char());
    if (peek() == '0') {
      // RFC 8259 forbids `01`, and its intent is unclear (`010` is decimal to some lenient
      // readers, octal to C): refuse it rather than guess.
      const position zero = here();
      bump();
      if (!eof() && peek() >= '0' && peek() <= '9')
        fail(zero, "a number with a leading zero: JSON forbids it (write 1, not 01)");
    }
    while (!eof() && peek() >= '0' && peek() <= '9') bump();
    if (!eof() && peek() == '.') {
      integral = false;
      bump();
      if (eof() || peek() < '0' || peek() > '9') fail(here(), "expected a digit after '.', got " + show_char());
      while (!eof() && peek() >= '0' && peek() <= '9') bump();
    }
    if (!eof() && (peek() == 'e' || peek() == 'E')) {
      integral = false;
      bump();
      if (!eof() && (peek() == '+' || peek() == '-')) bump();
      if (eof() || peek() < '0' || peek() > '9') fail(here(), "expected a digit in the exponent, got " + show_char());
      while (!eof() && peek() >= '0' && peek() <= '9') bump();
    }
    if (!eof() && ((peek() >= 'a' && peek() <= 'z') || (peek() >= 'A' && peek() <= 'Z') || peek() == '_'))
      fail(here(), "unexpected " + show_char() + " after a number (hex, suffixes and units are not JSON)");
    const std::string_view lit = s_.substr(b, i_ - b);
    v.s.assign(lit.data(), lit.size());
    const char* first = lit.data();
    const char* last = lit.data() + lit.size();
    if (integral) {
      std::int64_t x = 0;
      const auto r = std::from_chars(first, last, x);
      if (r.ec == std::errc() && r.ptr == last) {
        v.is_int = true;
        v.i = x;
        v.d = static_cast<double>(x);
        return v;
      }
    }
    double d = 0;
    const auto r = std::from_chars(first, last, d);
    if (r.ec == std::errc::result_out_of_range) {
      // Too large or too small for a double: keep the sign, magnitude inf (or 0 when tiny).
      const std::size_t ep = lit.find_first_of("eE");
      const bool tiny = ep != std::string_view::npos && ep + 1 < lit.size() && lit[ep + 1] == '-';
      d = tiny ? 0.0 : std::numeric_limits<double>::infinity();
      if (lit[0] == '-') d = -d;
    } else if (r.ec != std::errc()) {
      fail(v.pos, "malformed number '" + std::string(lit.substr(0, 40)) + "'");
    }
    v.d = d;
    return v;
  }
};

}  // namespace detail_json

/// Parses `text` (the contents of `file`, used only in messages). Throws `json::error`.
inline value parse(std::string_view text, const std::string& file = "<input>", const parse_options& o = {}) {
  detail_json::parser p(text, file, o);
  return p.run();
}

/// The line and column (1-based, in bytes) of byte `offset` of `text`, for a message about a
/// place the parser never reached (the first byte past a size limit). O(offset).
inline position position_of(std::string_view text, std::size_t offset) {
  position p;
  p.line = 1;
  p.column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

/// The length in bytes (1..4) of the well-formed UTF-8 character at `s[i]`, or 0 when the bytes
/// there are not one (a stray continuation byte, a truncated sequence, an overlong form, a
/// surrogate, beyond U+10FFFF). @pre i < s.size(). O(1).
inline std::size_t utf8_length_at(const std::string& s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  bool ok = n != 0 && i + n <= s.size() && !(n == 2 && c < 0xC2) && !(n == 4 && c > 0xF4);
  for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
  if (ok && n == 3) {
    const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);  // overlong; surrogates
  }
  if (ok && n == 4) {
    const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    ok = !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);  // overlong; beyond U+10FFFF
  }
  return ok ? n : 0;
}

/// Why `s` cannot be a label in schedsim's outputs (task names, group and domain labels): a
/// control character, or not valid UTF-8 (overlong forms, surrogates, beyond U+10FFFF), which
/// would make the JSON and CSV invalid or split a trace record over two lines. Empty when it
/// can. O(size).
inline std::string label_problem(const std::string& s) {
  const auto hex2 = [](unsigned char c) {
    const char* d = "0123456789ABCDEF";
    return std::string{d[c >> 4], d[c & 15]};
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F)
      return "a control character (byte 0x" + hex2(c) + ") in a name: expected printable characters";
    const std::size_t n = utf8_length_at(s, i);
    if (n == 0) return "not valid UTF-8 (byte 0x" + hex2(c) + " at offset " + std::to_string(i) + ")";
    i += n;
  }
  return std::string();
}

}  // namespace json
}  // namespace sim
}  // namespace schedcore

#endif
