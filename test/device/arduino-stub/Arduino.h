// Just enough of the Arduino core (ESP32 flavour) to compile and run the guide's sketch on a
// host: String over std::string, Serial to stdout, delay as a no-op, configTzTime and
// getLocalTime as arduino-esp32 implements them (setenv TZ + tzset; localtime_r).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

class String {
 public:
  String() {}
  String(const char *s) : s_(s) {}
  String(const std::string &s) : s_(s) {}
  unsigned int length() const { return s_.size(); }
  int indexOf(char c, unsigned int from = 0) const {
    auto at = s_.find(c, from);
    return at == std::string::npos ? -1 : (int)at;
  }
  String substring(unsigned int from) const { return from >= s_.size() ? String() : String(s_.substr(from)); }
  String substring(unsigned int from, unsigned int to) const {
    return from >= s_.size() || to <= from ? String() : String(s_.substr(from, to - from));
  }
  bool startsWith(const char *prefix) const { return s_.rfind(prefix, 0) == 0; }
  long toInt() const { return std::atol(s_.c_str()); }
  const char *c_str() const { return s_.c_str(); }
  String operator+(const char *other) const { return String(s_ + other); }
  String operator+(const String &other) const { return String(s_ + other.s_); }

 private:
  std::string s_;
};

struct SerialPort {
  void begin(long) {}
  void println(const char *s) { std::printf("serial %s\n", s); }
  void println(struct tm *t, const char *format) {
    char out[64];
    std::strftime(out, sizeof out, format, t);
    std::printf("serial %s\n", out);
  }
};
inline SerialPort Serial;

inline void delay(unsigned long) {}

inline void configTzTime(const char *tz, const char *, const char * = nullptr, const char * = nullptr) {
  setenv("TZ", tz, 1);
  tzset();
  std::printf("tz %s\n", tz);
}

inline bool getLocalTime(struct tm *info, unsigned long = 5000) {
  time_t now = time(nullptr);
  return localtime_r(&now, info) != nullptr;
}
