// The FlatZinc lexer (solver/fzn/parser.hpp): tokens from the source text, with the character tables
// and literal helpers it uses. Internal to the parser.
#pragma once

#include "solver/fzn/model.hpp"
#include "solver/fzn/parser.hpp"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace kcp::fzn::detail {

// Annotations are the only recursive construct; a bound keeps adversarial input off the stack's
// end.
inline constexpr int kMaxNesting = 256;

// Character classes, looked up per byte in the lexer's inner loops.
enum : std::uint8_t { kIdentStart = 1, kIdentChar = 2, kDigit = 4 };

struct CharTable {
  std::uint8_t cls[256] = {};
  constexpr CharTable() {
    for (int c = 'a'; c <= 'z'; ++c) cls[c] = kIdentStart | kIdentChar;
    for (int c = 'A'; c <= 'Z'; ++c) cls[c] = kIdentStart | kIdentChar;
    cls[static_cast<int>('_')] = kIdentStart | kIdentChar;
    for (int c = '0'; c <= '9'; ++c) cls[c] = kIdentChar | kDigit;
  }
};
inline constexpr CharTable kChars;

inline bool has_class(char c, std::uint8_t cls) {
  return (kChars.cls[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool is_digit(char c) { return has_class(c, kDigit); }

inline int digit_value(char c, int base) {
  int d;
  if (c >= '0' && c <= '9') {
    d = c - '0';
  } else if (c >= 'a' && c <= 'f') {
    d = c - 'a' + 10;
  } else if (c >= 'A' && c <= 'F') {
    d = c - 'A' + 10;
  } else {
    return -1;
  }
  return d < base ? d : -1;
}

inline std::string describe_char(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char* hex = "0123456789abcdef";
  return std::string("'\\x") + hex[u >> 4] + hex[u & 15] + "'";
}

// The FlatZinc words that cannot name a variable or parameter.
inline bool is_keyword(std::string_view s) {
  static const std::string_view words[] = {
      "array", "bool",      "constraint", "false", "float", "int",  "maximize", "minimize",
      "of",    "predicate", "satisfy",    "set",   "solve", "true", "var"};
  for (std::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}

inline std::string unescape(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size()) {
      char e = raw[++i];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        default:
          out += e;
          break;  // \" and \\ stand for themselves
      }
    } else {
      out += c;
    }
  }
  return out;
}

// The number of elements of lo..hi, saturating at UINT64_MAX (only 2^64 itself saturates).
inline std::uint64_t range_size(std::int64_t lo, std::int64_t hi) {
  if (hi < lo) return 0;
  std::uint64_t diff = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  return diff == std::numeric_limits<std::uint64_t>::max() ? diff : diff + 1;
}

inline std::string range_text(std::int64_t lo, std::int64_t hi) {
  return std::to_string(lo) + ".." + std::to_string(hi);
}

// ---------------------------------------------------------------------------------------------
// Lexer

enum class Tok : std::uint8_t {
  end,
  ident,
  int_lit,
  float_lit,
  string_lit,
  semicolon,
  colon,
  double_colon,
  comma,
  dotdot,
  lbracket,
  rbracket,
  lparen,
  rparen,
  lbrace,
  rbrace,
  equals,
};

struct Token {
  Tok kind = Tok::end;
  Location loc;
  Location end;            ///< just past the token: where a missing ';' belongs
  std::string_view text;   ///< the source text (a string literal's contents without quotes)
  std::int64_t value = 0;  ///< int_lit
};

class Lexer {
 public:
  // `text` must be a std::string: its terminating NUL is the sentinel that stops the inner loops,
  // so they need no bounds checks; p_ == end_ tells the real end from an embedded NUL byte.
  Lexer(const std::string& text, const std::string& file)
      : p_(text.data()), end_(text.data() + text.size()), line_start_(text.data()), file_(file) {}

  void next(Token& t) {
    skip_space();
    t.loc = here();
    t.value = 0;
    const char* start = p_;
    char c = *p_;
    if (p_ == end_) {
      t.kind = Tok::end;
      t.text = {};
      t.end = t.loc;
      return;
    }
    if (has_class(c, kIdentStart)) {
      ++p_;
      while (has_class(*p_, kIdentChar)) ++p_;
      t.kind = Tok::ident;
    } else if (is_digit(c) || (c == '-' && is_digit(p_[1]))) {
      lex_number(t);
    } else if (c == '"') {
      lex_string(t);
      t.end = here();
      return;
    } else {
      ++p_;
      switch (c) {
        case ';':
          t.kind = Tok::semicolon;
          break;
        case ',':
          t.kind = Tok::comma;
          break;
        case '[':
          t.kind = Tok::lbracket;
          break;
        case ']':
          t.kind = Tok::rbracket;
          break;
        case '(':
          t.kind = Tok::lparen;
          break;
        case ')':
          t.kind = Tok::rparen;
          break;
        case '{':
          t.kind = Tok::lbrace;
          break;
        case '}':
          t.kind = Tok::rbrace;
          break;
        case '=':
          t.kind = Tok::equals;
          break;
        case ':':
          if (*p_ == ':') {
            ++p_;
            t.kind = Tok::double_colon;
          } else {
            t.kind = Tok::colon;
          }
          break;
        case '.':
          if (*p_ == '.') {
            ++p_;
            t.kind = Tok::dotdot;
            break;
          }
          fail(t.loc, "unexpected character '.'");
        default:
          fail(t.loc, "unexpected character " + describe_char(c));
      }
    }
    t.text = std::string_view(start, static_cast<std::size_t>(p_ - start));
    t.end = here();
  }

 private:
  Location here() const {
    std::ptrdiff_t col = p_ - line_start_ + 1;
    return {line_, col > INT_MAX ? INT_MAX : static_cast<int>(col)};
  }

  [[noreturn]] void fail(Location loc, const std::string& message) const {
    throw ParseError(file_, loc, message);
  }

  void new_line() {
    if (line_ < INT_MAX) ++line_;
    line_start_ = p_;
  }

  void skip_space() {
    for (;;) {
      char c = *p_;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p_;
      } else if (c == '\n') {
        ++p_;
        new_line();
      } else if (c == '%') {
        while (p_ != end_ && *p_ != '\n') ++p_;
      } else if (c == '/' && p_[1] == '*') {
        Location start = here();
        p_ += 2;
        for (;;) {
          if (p_ == end_) fail(start, "unterminated comment");
          if (*p_ == '*' && p_[1] == '/') {
            p_ += 2;
            break;
          }
          if (*p_++ == '\n') new_line();
        }
      } else {
        return;
      }
    }
  }

  void lex_number(Token& t) {
    const char* start = p_;
    bool negative = *p_ == '-';
    if (negative) ++p_;
    int base = 10;
    if (p_[0] == '0' && p_[1] == 'x' && digit_value(p_[2], 16) >= 0) {
      base = 16;
      p_ += 2;
    } else if (p_[0] == '0' && p_[1] == 'o' && digit_value(p_[2], 8) >= 0) {
      base = 8;
      p_ += 2;
    }
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    std::uint64_t magnitude = 0;
    bool overflow = false;
    for (int d; (d = digit_value(*p_, base)) >= 0; ++p_) {
      auto ud = static_cast<std::uint64_t>(d);
      if (magnitude > (limit - ud) / static_cast<std::uint64_t>(base)) {
        overflow = true;
      } else {
        magnitude = magnitude * static_cast<std::uint64_t>(base) + ud;
      }
    }
    if (base == 10) {
      bool is_float = false;
      // "1..5" is a range, so a '.' starts a fraction only when a digit follows it.
      if (*p_ == '.' && is_digit(p_[1])) {
        is_float = true;
        ++p_;
        while (is_digit(*p_)) ++p_;
      }
      if ((*p_ == 'e' || *p_ == 'E') &&
          (is_digit(p_[1]) || ((p_[1] == '+' || p_[1] == '-') && is_digit(p_[2])))) {
        is_float = true;
        p_ += 2;
        while (is_digit(*p_)) ++p_;
      }
      if (is_float) {
        t.kind = Tok::float_lit;
        return;
      }
    }
    if (overflow) {
      fail(t.loc, "integer literal out of range: " +
                      std::string(start, static_cast<std::size_t>(p_ - start)));
    }
    t.kind = Tok::int_lit;
    if (!negative) {
      t.value = static_cast<std::int64_t>(magnitude);
    } else if (magnitude == std::uint64_t{1} << 63) {
      t.value = std::numeric_limits<std::int64_t>::min();
    } else {
      t.value = -static_cast<std::int64_t>(magnitude);
    }
  }

  void lex_string(Token& t) {
    const char* start = ++p_;
    for (;;) {
      if (p_ == end_ || *p_ == '\n') fail(t.loc, "unterminated string literal");
      if (*p_ == '"') break;
      if (*p_ == '\\' && p_ + 1 != end_ && p_[1] != '\n') ++p_;
      ++p_;
    }
    t.kind = Tok::string_lit;
    t.text = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
  }

  const char* p_;
  const char* end_;
  const char* line_start_;
  int line_ = 1;
  const std::string& file_;
};

}  // namespace kcp::fzn::detail
