// A small strict JSON reader for the bench tests: enough to prove the
// --json output parses and to look values up by key.
#pragma once

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gol::bench::json_test {

struct JsonValue;
using JsonObject = std::map<std::string, JsonValue>;
using JsonArray = std::vector<JsonValue>;

struct JsonValue {
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<JsonArray>,
               std::shared_ptr<JsonObject>>
      value;
  bool is_null() const { return std::holds_alternative<std::nullptr_t>(value); }
  double number() const { return std::get<double>(value); }
  const std::string& string() const { return std::get<std::string>(value); }
  bool boolean() const { return std::get<bool>(value); }
  const JsonArray& array() const { return *std::get<std::shared_ptr<JsonArray>>(value); }
  const JsonObject& object() const { return *std::get<std::shared_ptr<JsonObject>>(value); }
  const JsonValue& operator[](const std::string& key) const { return object().at(key); }
};

class JsonReader {
 public:
  // Throws std::runtime_error on anything that is not one complete value.
  static JsonValue parse(std::string_view text) {
    JsonReader reader(text);
    JsonValue value = reader.value();
    reader.skip_space();
    if (reader.pos_ != text.size()) reader.fail("trailing text");
    return value;
  }

 private:
  explicit JsonReader(std::string_view text) : text_(text) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // Consumes the closing bracket the caller has peeked at.
  template <typename T>
  T close(T& done) {
    ++pos_;
    return std::move(done);
  }
  // The four hex digits of "\\uXXXX"; the tests only need the string to parse.
  char skip_unicode_escape() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    for (int i = 0; i < 4; ++i) {
      if (!std::isxdigit(static_cast<unsigned char>(text_[pos_++]))) fail("bad \\u escape");
    }
    return '?';
  }

  JsonValue value() {
    const char c = peek();
    if (c == '{') return {std::make_shared<JsonObject>(object())};
    if (c == '[') return {std::make_shared<JsonArray>(array())};
    if (c == '"') return {string()};
    if (literal("null")) return {nullptr};
    if (literal("true")) return {true};
    if (literal("false")) return {false};
    return {number()};
  }
  JsonObject object() {
    expect('{');
    JsonObject out;
    if (peek() == '}') return close(out);
    while (true) {
      if (peek() != '"') fail("expected a key");
      std::string key = string();
      expect(':');
      if (!out.emplace(key, value()).second) fail("duplicate key " + key);
      if (peek() == '}') return close(out);
      expect(',');
    }
  }
  JsonArray array() {
    expect('[');
    JsonArray out;
    if (peek() == ']') return close(out);
    while (true) {
      out.push_back(value());
      if (peek() == ']') return close(out);
      expect(',');
    }
  }
  std::string string() {
    expect('"');
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c == '\\') {
        if (pos_ >= text_.size()) fail("unfinished escape");
        c = text_[pos_++];
        if (c == 'n')
          c = '\n';
        else if (c == 't')
          c = '\t';
        else if (c == 'u')
          c = skip_unicode_escape();
        else if (c != '"' && c != '\\' && c != '/')
          fail("bad escape");
      }
      out += c;
    }
    expect('"');
    return out;
  }
  double number() {
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           std::string_view("+-0123456789.eE").find(text_[pos_]) != std::string_view::npos) {
      ++pos_;
    }
    if (pos_ == start) fail("expected a value");
    const std::string digits(text_.substr(start, pos_ - start));
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) fail("bad number " + digits);
    return v;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace gol::bench::json_test
