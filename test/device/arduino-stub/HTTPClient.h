// The sketch's HTTP calls: the URL it asks for goes to stdout, the body is the file
// ZONETIME_BODY names (the test fetched it from the real server at that URL's path).
#pragma once
#include <fstream>
#include <sstream>
#include "Arduino.h"

class HTTPClient {
 public:
  void begin(const String &url) { std::printf("url %s\n", url.c_str()); }
  int GET() {
    std::ifstream in(std::getenv("ZONETIME_BODY"));
    if (!in) return -1;
    std::stringstream text;
    text << in.rdbuf();
    body_ = text.str();
    return 200;
  }
  String getString() { return String(body_); }
  void end() {}

 private:
  std::string body_;
};
