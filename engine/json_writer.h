// A minimal JSON writer for the command line's and bench's machine-readable
// output: one object or array at a time, keys in insertion order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gol {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // Names the next value inside an object.
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  // Non-finite numbers are written as null (JSON has no NaN).
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  const std::string& str() const { return out_; }

 private:
  void separate();
  std::string out_;
  bool need_comma_ = false;
};

std::string json_escape(std::string_view text);

}  // namespace gol
