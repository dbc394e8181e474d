// The sketch's Wi-Fi calls: always connected.
#pragma once
#include "Arduino.h"
enum { WL_CONNECTED = 3 };
struct WiFiClass {
  void begin(const char *, const char *) {}
  int status() { return WL_CONNECTED; }
};
inline WiFiClass WiFi;
