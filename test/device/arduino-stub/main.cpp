// Runs the guide's sketch on a host: setup() once, loop() once, then the local time the TZ
// it set gives at each instant named on the command line ("offset abbreviation isdst").
#include "Arduino.h"
#include "sketch.cpp"

int main(int argc, char **argv) {
  setup();
  std::printf("refresh %lld\n", (long long)refreshAt);
  loop();
  for (int i = 1; i < argc; i++) {
    time_t t = (time_t)std::atoll(argv[i]);
    struct tm local;
    localtime_r(&t, &local);
    std::printf("reading %ld %s %d\n", local.tm_gmtoff, local.tm_zone, local.tm_isdst);
  }
  return 0;
}
