// svg_check: a minimal well-formedness checker for the SVG files schedsim writes (and for the
// SVG elements inlined in its HTML report). Not a full XML parser; it checks what matters here:
// - tags balance and nest properly, with exactly one root element, which is <svg>;
// - names are XML names, attributes are name="value" (or '...'), no duplicate attribute;
// - every '&' starts a known or numeric entity, no '<' inside attribute values;
// - standalone files declare xmlns="http://www.w3.org/2000/svg";
// - at least one <path> with a non-empty d attribute (a chart with nothing drawn is an error).
//
// usage: svg_check FILE.svg...          (each file is one standalone SVG document)
//        svg_check --html FILE.html     (every <svg>...</svg> element inside; at least one)
// Exit 0 when every document passes; 1 with a message naming the file and offset otherwise.
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct checker {
  const std::string& s;
  std::string err;
  std::size_t paths = 0;  // <path> elements with a non-empty d
  std::size_t elements = 0;

  bool fail(std::size_t at, const std::string& what) {
    if (err.empty()) err = "offset " + std::to_string(at) + ": " + what;
    return false;
  }
  static bool name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':'; }
  static bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

  bool entity(std::size_t& i) {  // s[i] == '&'
    const std::size_t semi = s.find(';', i);
    if (semi == std::string::npos || semi - i > 10) return fail(i, "unterminated entity");
    const std::string e = s.substr(i + 1, semi - i - 1);
    static const std::set<std::string> named = {"amp", "lt", "gt", "quot", "apos"};
    bool ok = named.count(e) > 0;
    if (!ok && e.size() >= 2 && e[0] == '#') {
      ok = true;
      const bool hex = e[1] == 'x';
      for (std::size_t k = hex ? 2 : 1; k < e.size(); ++k)
        ok = ok && (std::isdigit(static_cast<unsigned char>(e[k])) || (hex && std::isxdigit(static_cast<unsigned char>(e[k]))));
      ok = ok && e.size() > (hex ? 2u : 1u);
    }
    if (!ok) return fail(i, "unknown entity &" + e + ";");
    i = semi + 1;
    return true;
  }

  // Checks s[begin, end) as one XML document fragment with a single <svg> root.
  bool run(std::size_t begin, std::size_t end, bool standalone) {
    std::vector<std::string> stack;
    bool root_seen = false;
    std::size_t i = begin;
    while (i < end) {
      const char c = s[i];
      if (c == '&') {
        if (!entity(i)) return false;
        continue;
      }
      if (c != '<') {
        if (stack.empty() && !std::isspace(static_cast<unsigned char>(c))) return fail(i, "text outside the root element");
        ++i;
        continue;
      }
      if (s.compare(i, 4, "<!--") == 0) {
        const std::size_t e = s.find("-->", i + 4);
        if (e == std::string::npos || e >= end) return fail(i, "unterminated comment");
        i = e + 3;
        continue;
      }
      if (s.compare(i, 2, "<?") == 0) {
        if (!stack.empty() || root_seen) return fail(i, "processing instruction after the root");
        const std::size_t e = s.find("?>", i);
        if (e == std::string::npos || e >= end) return fail(i, "unterminated <?...?>");
        i = e + 2;
        continue;
      }
      if (s.compare(i, 2, "<!") == 0) return fail(i, "DOCTYPE/CDATA not expected in an SVG");
      const bool closing = i + 1 < end && s[i + 1] == '/';
      std::size_t k = i + (closing ? 2 : 1);
      if (k >= end || !name_start(s[k])) return fail(i, "bad tag name");
      const std::size_t n0 = k;
      while (k < end && name_char(s[k])) ++k;
      const std::string name = s.substr(n0, k - n0);
      if (closing) {
        while (k < end && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        if (k >= end || s[k] != '>') return fail(k, "bad closing tag </" + name);
        if (stack.empty() || stack.back() != name)
          return fail(i, "</" + name + "> does not close <" + (stack.empty() ? std::string("nothing") : stack.back()) + ">");
        stack.pop_back();
        i = k + 1;
        continue;
      }
      if (stack.empty()) {
        if (root_seen) return fail(i, "second root element <" + name + ">");
        if (name != "svg") return fail(i, "root element is <" + name + ">, not <svg>");
        root_seen = true;
      }
      ++elements;
      std::set<std::string> attrs;
      std::string d_value, xmlns;
      bool self_close = false;
      for (;;) {
        const std::size_t before = k;
        while (k < end && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        if (k >= end) return fail(i, "unterminated tag <" + name);
        if (s[k] == '>') {
          ++k;
          break;
        }
        if (s[k] == '/' && k + 1 < end && s[k + 1] == '>') {
          self_close = true;
          k += 2;
          break;
        }
        if (k == before) return fail(k, "attributes must be separated by white space");
        if (!name_start(s[k])) return fail(k, "bad attribute name in <" + name);
        const std::size_t a0 = k;
        while (k < end && name_char(s[k])) ++k;
        const std::string an = s.substr(a0, k - a0);
        if (!attrs.insert(an).second) return fail(a0, "duplicate attribute " + an);
        if (k >= end || s[k] != '=') return fail(k, "attribute " + an + " without =value");
        ++k;
        if (k >= end || (s[k] != '"' && s[k] != '\'')) return fail(k, "unquoted value of " + an);
        const char q = s[k++];
        const std::size_t v0 = k;
        while (k < end && s[k] != q) {
          if (s[k] == '<') return fail(k, "'<' in the value of " + an);
          if (s[k] == '&') {
            if (!entity(k)) return false;
            continue;
          }
          ++k;
        }
        if (k >= end) return fail(v0, "unterminated value of " + an);
        const std::string v = s.substr(v0, k - v0);
        if (an == "d") d_value = v;
        if (an == "xmlns") xmlns = v;
        ++k;
      }
      if (name == "svg" && stack.empty() && standalone && xmlns != "http://www.w3.org/2000/svg")
        return fail(i, "standalone <svg> without xmlns=\"http://www.w3.org/2000/svg\"");
      if (name == "path" && d_value.find_first_not_of(" \t\n") != std::string::npos) ++paths;
      if (!self_close) stack.push_back(name);
      i = k;
      if (stack.empty()) {  // the root closed itself: only white space may follow
        while (i < end && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i < end) return fail(i, "content after the root element");
      }
    }
    if (!stack.empty()) return fail(end, "unclosed <" + stack.back() + ">");
    if (!root_seen) return fail(begin, "no <svg> element");
    return true;
  }
};

std::string slurp(const std::string& path, bool& ok) {
  std::ifstream f(path, std::ios::binary);
  ok = static_cast<bool>(f);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: svg_check FILE.svg... | svg_check --html FILE.html\n";
    return 2;
  }
  const bool html = std::string(argv[1]) == "--html";
  int bad = 0;
  for (int a = html ? 2 : 1; a < argc; ++a) {
    bool ok = false;
    const std::string text = slurp(argv[a], ok);
    if (!ok || text.empty()) {
      std::cerr << argv[a] << ": missing or empty\n";
      ++bad;
      continue;
    }
    if (!html) {
      checker c{text, {}, 0, 0};
      if (!c.run(0, text.size(), true)) {
        std::cerr << argv[a] << ": " << c.err << "\n";
        ++bad;
      } else if (c.paths == 0) {
        std::cerr << argv[a] << ": no <path> with a non-empty d (nothing drawn)\n";
        ++bad;
      } else {
        std::cout << argv[a] << ": ok (" << c.elements << " elements, " << c.paths << " paths)\n";
      }
      continue;
    }
    // HTML: every <svg ...>...</svg> element (they do not nest in the report).
    std::size_t pos = 0, n = 0, paths = 0;
    while ((pos = text.find("<svg", pos)) != std::string::npos) {
      const std::size_t e = text.find("</svg>", pos);
      if (e == std::string::npos) {
        std::cerr << argv[a] << ": <svg> at offset " << pos << " never closed\n";
        ++bad;
        break;
      }
      checker c{text, {}, 0, 0};
      if (!c.run(pos, e + 6, false)) {
        std::cerr << argv[a] << ": inline svg #" << n << ": " << c.err << "\n";
        ++bad;
      }
      paths += c.paths;
      ++n;
      pos = e + 6;
    }
    if (n == 0 || paths == 0) {
      std::cerr << argv[a] << ": no inline <svg> with a drawn <path>\n";
      ++bad;
    } else {
      std::cout << argv[a] << ": ok (" << n << " inline svg elements, " << paths << " paths)\n";
    }
  }
  return bad == 0 ? 0 : 1;
}
