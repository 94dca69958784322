#pragma once
// The request as it came off the socket, which cpp-httplib does not show a
// handler: 0.11.4 drops a header whose value is empty, keeps a repeated one
// without saying that it was repeated next to the others, parses a multipart
// body into req.files and leaves req.body empty, and writes the answer itself
// once the handler has returned.
//
// wire_server is an httplib::Server that serves each connection through a
// stream of its own. It is the least invasive seam the library leaves open:
// Server::process_and_close_socket is virtual and Server::process_request is
// protected, so the subclass runs the same request parser, router and
// response writer, and only replaces the keep-alive loop around them and the
// socket I/O under them. The stream keeps every byte httplib reads for the
// request in flight (the head always; the body too when asked), and can
// refuse to write the answer. Handlers run on the thread that reads the
// request, and reach that request through current_wire().

#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace conform::reference::detail {

/// One request in flight on a wire_server connection.
struct wire_request {
  std::string bytes;          // as read: the head, then (when kept) the body
  std::size_t head_size = 0;  // bytes of the head, its blank line included (0: not complete)
  bool drop = false;          // set by a handler: close the connection, write nothing
  bool close_after = false;   // set by a handler: close the connection after the answer
  std::uint64_t tag = 0;      // set by a handler: names the request to on_answered
  std::size_t written = 0;    // bytes of the answer handed to the socket
  bool write_failed = false;  // the peer was gone, or a write failed
  bool keep_body = false;
  // When the request's first byte was read, and when the answer's first byte
  // was about to be handed to the socket (or the connection closed instead).
  // A client's wait between an answer and its next request, measured from
  // these two, is never shorter than the wait it made: a busy server thread
  // that stamps late cannot make a correct client look hasty.
  std::chrono::steady_clock::time_point arrived{};
  std::chrono::steady_clock::time_point handed_over{};

  /// The head's header fields in order, as sent: repeated ones repeated,
  /// empty values kept, values without surrounding whitespace.
  const std::vector<std::pair<std::string, std::string>>& headers() const;
  /// How many times header `name` (case-insensitive) was sent, empty values included.
  std::size_t count(std::string_view name) const;
  /// The body as sent, its transfer coding (chunked) removed; nullopt when
  /// the body was not kept or a chunked body is malformed.
  std::optional<std::string> body() const;

 private:
  mutable std::optional<std::vector<std::pair<std::string, std::string>>> parsed_;
};

/// The request in flight on this thread, or nullptr outside a wire_server.
wire_request* current_wire();

/// A body read off the wire by read_wire_body.
struct wire_body {
  std::string bytes;  // the body, its transfer coding removed
  int refused = 0;    // 0: read; 413: longer than the limit; 400: cut short or malformed
};

/// Reads the body of the request in flight on this thread off its
/// connection, as Content-Length or a chunked coding delimits it, before
/// cpp-httplib would read it. cpp-httplib 0.11 parses a multipart body
/// itself and refuses one that ends right after its close delimiter, which
/// RFC 2046 allows and Node 18's fetch sends: the server reads those bodies
/// here and parses them with core::parse_multipart. When the body is
/// refused, the connection is closed after the answer (its remaining
/// bytes are not a request). Outside a wire_server: refused, 400.
wire_body read_wire_body(const httplib::Request& req, std::size_t limit);

/// The header fields of a request head (request line first, then fields).
std::vector<std::pair<std::string, std::string>> parse_head_fields(std::string_view head);

/// A chunked body decoded; nullopt when malformed.
std::optional<std::string> decode_chunked(std::string_view bytes);

/// An httplib::Server whose connections go through the wire stream.
class wire_server : public httplib::Server {
 public:
  /// Keep every request's body bytes too (the certification server's recorder).
  void keep_bodies(bool on) { keep_bodies_ = on; }
  /// Called after each tagged request's answer was written, dropped, or
  /// could not be written (`delivered` false), once its connection is
  /// closed when it will be.
  std::function<void(const wire_request&, bool delivered)> on_answered;

 private:
  bool process_and_close_socket(::socket_t sock) override;
  bool keep_bodies_ = false;
};

}  // namespace conform::reference::detail
