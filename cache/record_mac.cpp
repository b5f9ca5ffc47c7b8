// HMAC-SHA256 of remote records (OpenSSL's EVP_MAC).
#include "cache/record_mac.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <array>
#include <memory>

namespace anchorfs::cache {
namespace {

constexpr std::string_view kSealMagic = "AFM1";
constexpr size_t kMacBytes = 32;
using Mac = std::array<unsigned char, kMacBytes>;

struct MacDeleter {
  void operator()(EVP_MAC* mac) const { EVP_MAC_free(mac); }
  void operator()(EVP_MAC_CTX* ctx) const { EVP_MAC_CTX_free(ctx); }
};

// HMAC-SHA256(farm_key, key || payload); nullopt only if OpenSSL fails.
std::optional<Mac> mac_of(std::string_view farm_key, std::string_view key,
                          std::string_view payload) {
  const std::unique_ptr<EVP_MAC, MacDeleter> hmac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  if (!hmac) return std::nullopt;
  const std::unique_ptr<EVP_MAC_CTX, MacDeleter> ctx(EVP_MAC_CTX_new(hmac.get()));
  if (!ctx) return std::nullopt;
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                               OSSL_PARAM_END};
  Mac mac{};
  size_t length = 0;
  if (EVP_MAC_init(ctx.get(), reinterpret_cast<const unsigned char*>(farm_key.data()),
                   farm_key.size(), params) != 1 ||
      EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(key.data()), key.size()) !=
          1 ||
      EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(payload.data()),
                     payload.size()) != 1 ||
      EVP_MAC_final(ctx.get(), mac.data(), &length, mac.size()) != 1 || length != kMacBytes) {
    return std::nullopt;
  }
  return mac;
}

}  // namespace

std::string seal_remote_value(std::string_view farm_key, std::string_view key,
                              std::string_view payload) {
  const std::optional<Mac> mac = mac_of(farm_key, key, payload);
  if (!mac) return {};  // "" is no record: the remote keeps nothing of ours
  std::string value(kSealMagic);
  value.append(reinterpret_cast<const char*>(mac->data()), mac->size());
  value.append(payload);
  return value;
}

std::optional<std::string_view> open_remote_value(std::string_view farm_key, std::string_view key,
                                                  std::string_view value) {
  if (value.size() < kSealMagic.size() + kMacBytes || !value.starts_with(kSealMagic)) return std::nullopt;
  const std::string_view payload = value.substr(kSealMagic.size() + kMacBytes);
  const std::optional<Mac> mac = mac_of(farm_key, key, payload);
  if (!mac || CRYPTO_memcmp(mac->data(), value.data() + kSealMagic.size(), kMacBytes) != 0) {
    return std::nullopt;
  }
  return payload;
}

}  // namespace anchorfs::cache
