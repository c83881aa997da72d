// The sweep's runner: each case on the cpu, then on cuda, values compared.
//
//   tensor_run_sweep [--family F] [--only SUBSTRING] [--inventory] [--verbose] [--trace] [--cpu-twice]
//
// Run it under tensor-run (a CUDA build of LibTorch would do as well). One
// line per failing case, then a summary; exit status 1 when a case failed,
// 2 on bad usage or when there are no cuda devices.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "sweep.h"

namespace sweep {

std::vector<Case>& all() {
  static std::vector<Case> cases;
  return cases;
}

bool add(Case c) {
  all().push_back(std::move(c));
  return true;
}

namespace {
struct Skip {
  std::string family, name, why;
};
std::vector<Skip>& skips() {
  static std::vector<Skip> s;
  return s;
}
}  // namespace

bool skip(const std::string& family, const std::string& name, const std::string& why) {
  skips().push_back({family, name, why});
  return true;
}

namespace {
torch::Tensor place(torch::Tensor t, torch::Device device, bool grad) {
  t = t.to(device);
  if (grad) t.requires_grad_(true);
  return t;
}
}  // namespace

torch::Tensor randn(torch::IntArrayRef sizes, torch::Device device, bool grad) {
  return place(torch::randn(sizes), device, grad);
}
torch::Tensor rand(torch::IntArrayRef sizes, torch::Device device, bool grad) {
  return place(torch::rand(sizes), device, grad);
}
torch::Tensor randint(int64_t high, torch::IntArrayRef sizes, torch::Device device) {
  return torch::randint(high, sizes, torch::kLong).to(device);
}

Results forward_backward(const std::vector<torch::Tensor>& outputs, const std::vector<torch::Tensor>& inputs,
                         const std::vector<torch::Tensor>& parameters) {
  Results r(outputs.begin(), outputs.end());
  torch::Tensor total;
  for (const torch::Tensor& o : outputs) {
    if (!o.defined() || !o.requires_grad() || !torch::isFloatingType(o.scalar_type())) continue;
    torch::Tensor s = o.sum();
    total = total.defined() ? total + s : s;
  }
  if (!total.defined()) return r;
  total.backward();
  for (const auto* list : {&inputs, &parameters})
    for (const torch::Tensor& t : *list) {
      torch::Tensor g = t.defined() ? t.grad() : torch::Tensor();
      r.push_back(
          g.defined() ? g : torch::empty({0}, torch::TensorOptions().device(t.defined() ? t.device() : torch::kCPU)));
    }
  return r;
}

}  // namespace sweep

namespace {

std::string describe(const torch::Tensor& t) {
  if (!t.defined()) return "undefined";
  std::ostringstream s;
  s << t.scalar_type() << t.sizes() << " on " << t.device();
  return s.str();
}

// Why the cuda run's results differ from the cpu run's, or "".
std::string compare(const sweep::Results& cpu, const sweep::Results& cuda, torch::Device device, bool random) {
  if (cpu.size() != cuda.size())
    return "the cpu run gave " + std::to_string(cpu.size()) + " results, the cuda run " + std::to_string(cuda.size());
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const torch::Tensor &a = cpu[i], &b = cuda[i];
    const std::string at = "result " + std::to_string(i) + ": ";
    if (a.defined() != b.defined()) return at + describe(a) + " on the cpu, " + describe(b) + " on cuda";
    if (!a.defined()) continue;
    if (b.device() != device && b.numel() > 0)
      return at + "on " + b.device().str() + ", where a GPU gives " + device.str();
    if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes())
      return at + describe(a) + " on the cpu, " + describe(b) + " on cuda";
    if (random || a.numel() == 0) continue;
    torch::Tensor bc = b.cpu();
    bool same;
    if (a.is_floating_point() || a.is_complex())
      same = torch::allclose(a, bc, /*rtol=*/1e-4, /*atol=*/1e-5, /*equal_nan=*/true);
    else
      same = torch::equal(a, bc);
    if (!same) {
      std::ostringstream s;
      s << at << "values differ (max abs difference "
        << (a.is_floating_point() ? (a - bc).abs().nan_to_num(0).max().item<double>() : -1.0) << ")";
      return s.str();
    }
  }
  return "";
}

sweep::Results run_on(const sweep::Case& c, torch::Device device) {
  torch::manual_seed(1234);
  return c.run(device);
}

}  // namespace

int main(int argc, char** argv) {
  std::string family, only;
  bool inventory = false, verbose = false, trace = false, cpu_twice = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--family") && i + 1 < argc)
      family = argv[++i];
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (!std::strcmp(argv[i], "--inventory"))
      inventory = true;
    else if (!std::strcmp(argv[i], "--verbose"))
      verbose = true;
    else if (!std::strcmp(argv[i], "--trace"))
      trace = true;  // each case's name before it runs, for crashes
    // Both runs on the cpu: finds cases that do not repeat on their own
    // (a sample a kernel reads out of bounds), without tensor-run.
    else if (!std::strcmp(argv[i], "--cpu-twice"))
      cpu_twice = true;
    else {
      std::cerr << "usage: " << argv[0]
                << " [--family module|functional|aten] [--only SUBSTRING] [--inventory] [--verbose] [--trace] "
                   "[--cpu-twice]\n";
      return 2;
    }
  }
  if (inventory) {
    for (const sweep::Case& c : sweep::all()) std::cout << "case\t" << c.family << "\t" << c.name << "\n";
    for (const sweep::Skip& s : sweep::skips())
      std::cout << "skip\t" << s.family << "\t" << s.name << "\t" << s.why << "\n";
    return 0;
  }
  if (!cpu_twice && !torch::cuda::is_available()) {
    std::cerr << "tensor_run_sweep: no cuda device; run it under tensor-run\n";
    return 2;
  }
  const torch::Device cuda = cpu_twice ? torch::Device(torch::kCPU) : torch::Device(torch::kCUDA, 0);
  int ran = 0, failed = 0, cpu_only = 0, refused = 0;
  for (const sweep::Case& c : sweep::all()) {
    if (!family.empty() && c.family != family) continue;
    if (!only.empty() && c.name.find(only) == std::string::npos) continue;
    if (trace) std::cerr << "run " << c.family << " " << c.name << std::endl;
    sweep::Results on_cpu;
    try {
      on_cpu = run_on(c, torch::kCPU);
    } catch (const std::exception& e) {
      // An ATen sample synthesised from the schema that the op rejects even
      // on the cpu is no case; a written case must run on the cpu.
      std::string what = e.what();
      what = what.substr(0, what.find('\n'));
      if (c.family == "aten") {
        if (verbose) std::cout << "n/a " << c.name << ": " << what << "\n";
        ++cpu_only;
        continue;
      }
      ++ran, ++failed;
      std::cout << "FAIL " << c.family << " " << c.name << ": the case fails on the cpu: " << what << "\n";
      continue;
    }
    ++ran;
    std::string why;
    bool threw = false;
    try {
      why = compare(on_cpu, run_on(c, cuda), cuda, c.random);
    } catch (const c10::Error& e) {
      why = e.what_without_backtrace();
      threw = true;
    } catch (const std::exception& e) {
      why = e.what();
      threw = true;
    }
    if (!c.refused.empty() && !cpu_twice) {
      if (threw && why.find(c.refused) != std::string::npos) {
        ++refused;
        if (verbose)
          std::cout << "refused " << c.family << " " << c.name << ": " << why.substr(0, why.find('\n')) << "\n";
        continue;
      }
      why = threw ? "refused with another error than \"" + c.refused + "\": " + why
                  : "declared refused (\"" + c.refused + "\") but ran" + (why.empty() ? "" : ": " + why);
    }
    if (!why.empty()) {
      ++failed;
      std::string first_line = why.substr(0, why.find('\n'));
      std::cout << "FAIL " << c.family << " " << c.name << ": " << first_line << "\n";
    } else if (verbose) {
      std::cout << "ok " << c.family << " " << c.name << "\n";
    }
  }
  std::cout << "sweep: " << ran << " cases ran on cpu and cuda, " << ran - failed - refused << " equal, " << failed
            << " failed";
  if (refused) std::cout << ", " << refused << " refused by tensor-run as declared";
  if (cpu_only) std::cout << " (" << cpu_only << " samples the cpu itself rejects were not cases)";
  std::cout << "\n";
  return failed ? 1 : 0;
}
