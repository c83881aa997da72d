// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device %t -- -- %libtorch

// An op whose schema returns one `Tensor[]` from one tensor (chunk, split,
// unbind, tensor_split) puts every piece on that tensor's device. Held in a
// vector, a reference to one, or walked by a range-for, the pieces meet
// other tensors like the tensor they came from.

// --- Bugs --------------------------------------------------------------------

void pieces_meet_cpu_tensors(torch::Device device) {
  auto x = torch::randn({4, 6}).to(device);
  auto m = torch::ones({4, 2});

  auto parts = x.chunk(3, -1);
  auto a = parts[0] + m;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'operator+' combines tensors on different devices: 'parts[0]' is on 'device' and 'm' is on cpu [tensor-mixed-device]
  // CHECK-MESSAGES: :[[@LINE-6]]:33: note: 'parts[0]' is on 'device': moved here

  auto pieces = torch::split(x, 2, 1);
  auto b = pieces.at(1) * m;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'operator*' combines tensors on different devices: 'pieces.at(1)' is on 'device' and 'm' is on cpu [tensor-mixed-device]

  auto rows = x.unbind(0);
  auto c = torch::dot(rows.front(), torch::ones({6}));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'dot' combines tensors on different devices: 'rows.front()' is on 'device' and 'torch::ones({6})' is on cpu [tensor-mixed-device]

  const auto &halves = x.tensor_split(2, 1);
  auto d = halves[1] - torch::zeros({4, 3});
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'operator-' combines tensors on different devices: 'halves[1]' is on 'device' and 'torch::zeros({4, 3})' is on cpu [tensor-mixed-device]

  for (const auto &p : x.split(2, 1))
    auto e = p.masked_fill(torch::zeros({4, 2}, torch::kBool), 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'masked_fill' combines tensors on different devices: 'p' is on 'device' and 'torch::zeros({4, 2}, torch::kBool)' is on cpu [tensor-mixed-device]
}

// --- Clean -------------------------------------------------------------------

void pieces_on_the_same_device(torch::Device device) {
  auto x = torch::randn({4, 6}).to(device);
  auto m = torch::ones({4, 2}).to(device);
  auto parts = x.chunk(3, -1);
  auto a = parts[0] + m;

  // Pieces of a cpu tensor meet cpu tensors.
  auto cpu_parts = torch::randn({4, 6}).chunk(3, -1);
  auto b = cpu_parts[0] + torch::ones({4, 2});

  // Moved one by one through a reference.
  for (auto &p : parts)
    p = p.to(torch::kCPU);
  auto c = parts[1] + torch::ones({4, 2});

  // Reassigned from a cpu tensor's pieces.
  auto pieces = x.split(2, 1);
  pieces = torch::randn({4, 6}).split(2, 1);
  auto d = pieces[2] * torch::ones({4, 2});

  // A piece meets a 0-dim cpu tensor, which ATen allows.
  auto e = x.chunk(2)[0] + torch::tensor(2.0);

  // Several tensors in: each result keeps its own tensor's device.
  auto y = torch::randn({4, 6});
  auto broadcast = torch::broadcast_tensors({x, y});
  auto f = broadcast[1] + torch::ones({4, 6});

  // Indices of a cpu tensor's nonzero elements.
  auto where = torch::where(y > 0);
  auto g = where[0] + torch::ones({3}, torch::kLong);
}

// A vector a helper fills: not an op's result.
std::vector<torch::Tensor> pieces_of(const torch::Tensor &x);
void unknown_pieces(torch::Device device) {
  auto parts = pieces_of(torch::randn({4, 6}).to(device));
  auto a = parts[0] + torch::ones({4, 2});
}
