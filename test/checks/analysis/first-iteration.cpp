// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-device,tensor-unmoved-input,tensor-mixed-dtype %t -- -- %libtorch

// The first iteration of a loop. At a loop's head the analysis joins the
// facts from before the loop with those from the end of its body, so a
// recurrent state made on the cpu and reassigned from the model's output
// is on an unknown device there. But every run that enters the loop runs
// the body's unconditional blocks once with the state as it was before the
// loop, and a call that fails there fails on the first iteration. Blocks
// that a first iteration may skip (behind an `if`, after a `continue`, or
// after an inner loop) keep the joined facts.
#include <torch/torch.h>
#include <tuple>

// --- Bugs --------------------------------------------------------------------

// The hidden state of a GRU made on the cpu, then carried over from the
// output: the first step gets the cpu state.
torch::Tensor gru_steps(torch::Tensor seq, int64_t steps) {
  torch::Device device(torch::kCUDA);
  torch::nn::GRU gru(torch::nn::GRUOptions(16, 32));
  gru->to(device);
  auto x = seq.to(device);
  auto h = torch::zeros({1, 4, 32});
  torch::Tensor y;
  for (int64_t t = 0; t < steps; ++t) {
    auto out = gru->forward(x, h);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: input 'h' is on cpu but 'gru' is on cuda [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'h' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-8]]:8: note: 'gru' was moved to cuda here
    // CHECK-FIXES: auto out = gru->forward(x, h.to(device));
    y = std::get<0>(out);
    h = std::get<1>(out).detach();
  }
  return y;
}

// An LSTM's (h, c) state in a tuple, carried over in a while loop that ends
// with a break: the break leaves the loop, the first step still runs.
torch::Tensor lstm_until(torch::Tensor seq, double tolerance) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(16, 32));
  lstm->to(torch::kCUDA);
  auto x = seq.cuda();
  auto state = std::make_tuple(torch::zeros({1, 4, 32}), torch::zeros({1, 4, 32}));
  torch::Tensor y;
  while (true) {
    auto out = lstm->forward(x, state);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: input 'state' is on cpu but 'lstm' is on cuda [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-5]]:32: note: 'state' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-8]]:9: note: 'lstm' was moved to cuda here
    y = std::get<0>(out);
    state = std::get<1>(out);
    if (y.abs().max().item<double>() < tolerance)
      break;
  }
  return y;
}

// The state made before the epochs and reset from the output in each
// batch: the first batch of the first epoch gets it on the cpu.
void epochs(torch::Tensor data, int64_t epochs, int64_t batches) {
  torch::Device device(torch::kCUDA);
  torch::nn::RNN rnn(torch::nn::RNNOptions(8, 8));
  rnn->to(device);
  auto h = torch::zeros({1, 2, 8});
  for (int64_t e = 0; e < epochs; ++e) {
    for (int64_t b = 0; b < batches; ++b) {
      auto out = rnn->forward(data.to(device), h);
      // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: input 'h' is on cpu but 'rnn' is on cuda [tensor-unmoved-input]
      // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'h' is on cpu: created here
      // CHECK-MESSAGES: :[[@LINE-7]]:8: note: 'rnn' was moved to cuda here
      // CHECK-FIXES: auto out = rnn->forward(data.to(device), h.to(device));
      h = std::get<1>(out).detach();
    }
  }
}

// A check that throws does not make the rest of the body conditional.
void checked_steps(torch::Tensor x, int64_t steps) {
  torch::nn::GRU gru(torch::nn::GRUOptions(8, 8));
  gru->to(torch::kCUDA);
  auto h = torch::zeros({1, 2, 8});
  for (int64_t t = 0; t < steps; ++t) {
    if (!x.defined())
      throw std::runtime_error("no input");
    auto out = gru->forward(x.cuda(), h);
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: input 'h' is on cpu but 'gru' is on cuda [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-6]]:12: note: 'h' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE-8]]:8: note: 'gru' was moved to cuda here
    // CHECK-FIXES: auto out = gru->forward(x.cuda(), h.to(torch::kCUDA));
    h = std::get<1>(out);
  }
}

// A recurrent cell fed its own output, starting from a float64 state: the
// first step multiplies float64 by the cell's float32 weights.
torch::Tensor unroll(int64_t steps) {
  torch::nn::Linear cell(8, 8);
  auto state = torch::zeros({1, 8}, torch::kFloat64);
  for (int64_t t = 0; t < steps; ++t)
    state = torch::tanh(cell(state));
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: input 'state' is float64 but 'cell' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
    // CHECK-MESSAGES: :[[@LINE-4]]:16: note: 'state' is float64: created here
    // CHECK-MESSAGES: :[[@LINE-6]]:21: note: 'cell' has float32 parameters: created here
  return state;
}

// The state a user module's init_hidden() makes, carried over through its
// forward() (Lightning-AI/pytorch-lightning#3738's shape).
struct CharRNNImpl : torch::nn::Module {
  CharRNNImpl() {
    lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(8, 16)));
  }
  std::tuple<torch::Tensor, torch::Tensor> init_hidden(int64_t batch) {
    return std::make_tuple(torch::zeros({1, batch, 16}),
                           torch::zeros({1, batch, 16}));
  }
  std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>>
  forward(torch::Tensor x, std::tuple<torch::Tensor, torch::Tensor> hidden) {
    return lstm->forward(x, hidden);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: input 'hidden' is on cpu but 'lstm' is on cuda [tensor-unmoved-input]
    // CHECK-MESSAGES: :[[@LINE-7]]:28: note: 'hidden' is on cpu: created here
    // CHECK-MESSAGES: :[[@LINE+9]]:10: note: 'lstm' was moved to cuda here
    // CHECK-MESSAGES: :[[@LINE+12]]:31: note: in the call to 'forward' here
  }
  torch::nn::LSTM lstm{nullptr};
};
TORCH_MODULE(CharRNN);

void generate(torch::Tensor x, int64_t steps) {
  CharRNN model;
  model->to(torch::kCUDA);
  auto input = x.cuda();
  auto hidden = model->init_hidden(4);
  for (int64_t t = 0; t < steps; ++t) {
    auto [out, next] = model->forward(input, hidden);
    hidden = next;
  }
}

// --- Clean -------------------------------------------------------------------

// Each bug above, fixed.
torch::Tensor gru_steps_fixed(torch::Tensor seq, int64_t steps) {
  torch::Device device(torch::kCUDA);
  torch::nn::GRU gru(torch::nn::GRUOptions(16, 32));
  gru->to(device);
  auto x = seq.to(device);
  auto h = torch::zeros({1, 4, 32}, device);
  torch::Tensor y;
  for (int64_t t = 0; t < steps; ++t) {
    auto out = gru->forward(x, h);
    y = std::get<0>(out);
    h = std::get<1>(out).detach();
  }
  return y;
}

torch::Tensor lstm_until_fixed(torch::Tensor seq, double tolerance) {
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(16, 32));
  lstm->to(torch::kCUDA);
  auto x = seq.cuda();
  auto state = std::make_tuple(torch::zeros({1, 4, 32}, torch::kCUDA),
                               torch::zeros({1, 4, 32}, torch::kCUDA));
  torch::Tensor y;
  while (true) {
    auto out = lstm->forward(x, state);
    y = std::get<0>(out);
    state = std::get<1>(out);
    if (y.abs().max().item<double>() < tolerance)
      break;
  }
  return y;
}

torch::Tensor unroll_fixed(int64_t steps) {
  torch::nn::Linear cell(8, 8);
  auto state = torch::zeros({1, 8});
  for (int64_t t = 0; t < steps; ++t)
    state = torch::tanh(cell(state));
  return state;
}

// The state moved at the top of the body, before its use.
void moved_in_body(torch::Tensor x, int64_t steps) {
  torch::nn::GRU gru(torch::nn::GRUOptions(8, 8));
  gru->to(torch::kCUDA);
  auto h = torch::zeros({1, 2, 8});
  for (int64_t t = 0; t < steps; ++t) {
    h = h.cuda();
    auto out = gru->forward(x.cuda(), h);
    h = std::get<1>(out);
  }
}

// A cpu placeholder the first step never reads: the use waits for a step
// that has a previous output.
torch::Tensor smoothness(torch::Tensor frames, int64_t steps) {
  torch::nn::Linear encoder(8, 8);
  encoder->to(torch::kCUDA);
  auto previous = torch::zeros({1, 8});
  auto total = torch::zeros({}, torch::kCUDA);
  for (int64_t t = 0; t < steps; ++t) {
    auto current = encoder(frames[t].cuda());
    if (t > 0)
      total = total + (current - previous).pow(2).sum();
    previous = current;
  }
  return total;
}

// The same with the first step skipped by a continue.
torch::Tensor smoothness_continue(torch::Tensor frames, int64_t steps) {
  torch::nn::Linear encoder(8, 8);
  encoder->to(torch::kCUDA);
  auto previous = torch::zeros({1, 8});
  auto total = torch::zeros({}, torch::kCUDA);
  bool first = true;
  for (int64_t t = 0; t < steps; ++t) {
    auto current = encoder(frames[t].cuda());
    if (first) {
      previous = current;
      first = false;
      continue;
    }
    total = total + (current - previous).pow(2).sum();
    previous = current;
  }
  return total;
}

// The state made on the device by the inner loop's first step: after the
// inner loop it is wherever the last step left it, which the analysis
// does not claim to know.
void after_inner_loop(torch::Tensor data, int64_t epochs, int64_t batches) {
  torch::nn::Linear head(8, 8);
  head->to(torch::kCUDA);
  auto features = torch::zeros({2, 8});
  for (int64_t e = 0; e < epochs; ++e) {
    for (int64_t b = 0; b < batches; ++b)
      features = data.cuda();
    auto out = head(features);
  }
}

// A do-while whose body makes the state on the device before reading it.
void do_while(torch::Tensor x, int64_t steps) {
  torch::nn::GRU gru(torch::nn::GRUOptions(8, 8));
  gru->to(torch::kCUDA);
  auto h = torch::zeros({1, 2, 8});
  int64_t t = 0;
  do {
    h = h.to(torch::kCUDA);
    auto out = gru->forward(x.cuda(), h);
    h = std::get<1>(out);
  } while (++t < steps);
}

// The user module's state made on the model's device.
void generate_fixed(torch::Tensor x, int64_t steps) {
  CharRNN model;
  model->to(torch::kCUDA);
  auto input = x.cuda();
  auto [h0, c0] = model->init_hidden(4);
  std::tuple<torch::Tensor, torch::Tensor> hidden(h0.cuda(), c0.cuda());
  for (int64_t t = 0; t < steps; ++t) {
    auto [out, next] = model->forward(input, hidden);
    hidden = next;
  }
}
