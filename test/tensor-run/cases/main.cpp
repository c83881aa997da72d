// Runs one case. A c10::Error that escapes (tensor-run's raise mode) is
// printed as "error: <message>" with exit status 1, as an uncaught
// exception would end a real program, but readable by the tests.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cases.h"

namespace cases {

std::map<std::string, Case>& registry() {
  static std::map<std::string, Case> r;
  return r;
}

void expect(bool ok, const char* what) {
  if (ok) return;
  std::cerr << "case failed: " << what << "\n";
  std::exit(3);
}

}  // namespace cases

int main(int argc, char** argv) {
  if (argc != 2 || !cases::registry().count(argv[1])) {
    std::cerr << "usage: " << argv[0] << " CASE\ncases:";
    for (const auto& [name, c] : cases::registry()) std::cerr << " " << name;
    std::cerr << "\n";
    return 2;
  }
  try {
    cases::registry()[argv[1]]();
  } catch (const c10::Error& e) {
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
    return 1;
  }
  std::cout << "ok\n";
  return 0;
}
