// REQUIRES: libtorch
// RUN: %check_tidy %s tensor-mixed-dtype %t -- -- %libtorch

// Integer tensors where ATen needs the floating dtype of the other side:
// matrix products, and the built-in layers that compute in their
// parameters' dtype ("expected scalar type Float but found Byte"). A
// user's module may look its integer input up in an Embedding, and an
// Embedding takes int64 indices: neither is judged.
#include <torch/torch.h>

// The image bytes go straight into the network.
void bytes_into_conv(unsigned char *pixels) {
  torch::nn::Conv2d conv(1, 8, 3);
  auto img = torch::from_blob(pixels, {1, 1, 28, 28}, torch::kUInt8);
  auto y = conv->forward(img);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: input 'img' is uint8 but 'conv' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'img' is uint8: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: 'conv' has float32 parameters: created here
  (void)y;
}

void ids_into_linear() {
  torch::nn::Linear fc(3, 2);
  auto ids = torch::randint(10, {4, 3});
  auto y = fc->forward(ids);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: input 'ids' is int64 but 'fc' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'ids' is int64: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: 'fc' has float32 parameters: created here
  (void)y;
}

void ints_into_batch_norm() {
  torch::nn::BatchNorm1d bn(4);
  auto y = bn->forward(torch::ones({2, 4}, torch::kInt));
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: input 'torch::ones({2, 4}, torch::kInt)' is int32 but 'bn' has float32 parameters; modules do not promote their input [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: 'torch::ones({2, 4}, torch::kInt)' is int32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: 'bn' has float32 parameters: created here
  (void)y;
}

void integer_products() {
  auto w = torch::randn({3, 2});
  auto v = torch::tensor({1, 2, 3});
  auto r = torch::matmul(v, w);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'matmul' does not promote dtypes: 'v' is int64 and 'w' is float32 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'v' is int64: created here
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: 'w' is float32: created here
  auto labels = torch::zeros({2, 3}, torch::kLong);
  auto s = w.t().mm(labels);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'mm' does not promote dtypes: 'w.t()' is float32 and 'labels' is int64 [tensor-mixed-dtype]
  // CHECK-MESSAGES: :[[@LINE-9]]:12: note: 'w.t()' is float32: created here
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: 'labels' is int64: created here
  (void)r, (void)s;
}

// Clean: indices into an Embedding, converted bytes, a user's module that
// takes token ids, integer products of one dtype, unknown and loss inputs.
void embedding_takes_indices() {
  torch::nn::Embedding emb(10, 4);
  auto e = emb->forward(torch::randint(10, {2, 5}));
  torch::nn::EmbeddingBag bag(10, 4);
  auto b = bag->forward(torch::randint(10, {2, 5}));
  (void)e, (void)b;
}

void bytes_converted_first(unsigned char *pixels) {
  torch::nn::Conv2d conv(1, 8, 3);
  auto img = torch::from_blob(pixels, {1, 1, 28, 28}, torch::kUInt8);
  img = img.to(torch::kFloat).div(255);
  auto y = conv->forward(img);
  auto z = conv->forward(torch::from_blob(pixels, {1, 1, 28, 28}, torch::kUInt8).toType(torch::kFloat));
  (void)y, (void)z;
}

struct TaggerImpl : torch::nn::Module {
  TaggerImpl() : emb(register_module("emb", torch::nn::Embedding(100, 16))) {}
  torch::Tensor forward(torch::Tensor ids) { return emb->forward(ids).sum(1); }
  torch::nn::Embedding emb{nullptr};
};
TORCH_MODULE(Tagger);

void token_ids_into_a_half_model() {
  Tagger model;
  model->to(torch::kHalf);
  auto ids = torch::randint(100, {4, 7});
  auto out = model->forward(ids);  // the user's forward looks them up
  (void)out;
}

void integer_products_of_one_dtype(torch::Tensor unknown, bool c) {
  auto a = torch::randint(5, {3, 3});
  auto b = torch::tensor({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  auto p = torch::matmul(a, b);          // int64 @ int64
  auto q = torch::matmul(a, unknown);    // unknown dtype
  auto f = torch::randn({3, 3});
  if (c)
    a = a.to(torch::kFloat);
  auto r = a.mm(f);                      // int64 on one path only
  (void)p, (void)q, (void)r;
}

void losses_take_integer_targets() {
  torch::nn::Linear fc(4, 3);
  torch::nn::CrossEntropyLoss criterion;
  auto logits = fc->forward(torch::randn({2, 4}));
  auto loss = criterion(logits, torch::randint(3, {2}));
  (void)loss;
}
