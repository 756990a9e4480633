#include "mahjongclient.h"

#include <QMetaObject>

#include <chrono>

#include <google/protobuf/unknown_field_set.h>

using namespace mahjong::v1;

namespace {

const char *const kCodeNames[] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};

// Field numbers of google.rpc.Status, google.protobuf.Any, google.rpc.ErrorInfo and BadRequest, read
// from the status details without compiling googleapis' protos into the sample.
constexpr int kStatusDetails = 3, kAnyTypeUrl = 1, kAnyValue = 2, kErrorInfoReason = 1,
              kBadRequestViolations = 1, kViolationField = 1;

std::string firstString(const std::string &bytes, int number) {
  google::protobuf::UnknownFieldSet fields;
  if (!fields.ParseFromString(bytes)) return {};
  for (int i = 0; i < fields.field_count(); ++i) {
    const auto &f = fields.field(i);
    if (f.number() == number && f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
      return f.length_delimited();
  }
  return {};
}

}  // namespace

MahjongError MahjongError::fromStatus(const grpc::Status &status) {
  MahjongError e;
  e.code = int(status.error_code());
  e.codeName = QString::fromLatin1(e.code >= 0 && e.code <= 16 ? kCodeNames[e.code] : "UNKNOWN");
  e.message = QString::fromStdString(status.error_message());
  google::protobuf::UnknownFieldSet details;
  if (status.error_details().empty() || !details.ParseFromString(status.error_details())) return e;
  for (int i = 0; i < details.field_count(); ++i) {
    const auto &d = details.field(i);
    if (d.number() != kStatusDetails || d.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
      continue;
    const std::string typeUrl = firstString(d.length_delimited(), kAnyTypeUrl);
    const std::string value = firstString(d.length_delimited(), kAnyValue);
    if (typeUrl == "type.googleapis.com/google.rpc.ErrorInfo") {
      e.reason = QString::fromStdString(firstString(value, kErrorInfoReason));
    } else if (typeUrl == "type.googleapis.com/google.rpc.BadRequest" && e.field.isEmpty()) {
      e.field = QString::fromStdString(firstString(firstString(value, kBadRequestViolations), kViolationField));
    }
  }
  return e;
}

static void registerTypes() {
  qRegisterMetaType<MahjongError>("MahjongError");
  qRegisterMetaType<EvaluateResponse>("mahjong::v1::EvaluateResponse");
  qRegisterMetaType<AnalyzeResponse>("mahjong::v1::AnalyzeResponse");
  qRegisterMetaType<ListFansResponse>("mahjong::v1::ListFansResponse");
  qRegisterMetaType<EvaluateBatchResponse>("mahjong::v1::EvaluateBatchResponse");
  qRegisterMetaType<PlayResponse>("mahjong::v1::PlayResponse");
}

MahjongClient::MahjongClient(const QString &address, QObject *parent)
    : MahjongClient(grpc::CreateChannel(address.toStdString(), grpc::InsecureChannelCredentials()), parent) {}

MahjongClient::MahjongClient(std::shared_ptr<grpc::Channel> channel, QObject *parent)
    : QObject(parent), m_channel(std::move(channel)), m_stub(MahjongEngine::NewStub(m_channel)) {
  registerTypes();
}

MahjongClient::~MahjongClient() {
  // Tables first: their streams were opened on this client's channel.
  qDeleteAll(findChildren<PlayTable *>(QString(), Qt::FindDirectChildrenOnly));
  std::unique_lock<std::mutex> lock(m_mutex);
  for (grpc::ClientContext *context : m_inFlight) context->TryCancel();
  m_idle.wait(lock, [this] { return m_inFlight.empty(); });
}

void MahjongClient::track(grpc::ClientContext *context) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_inFlight.insert(context);
}

void MahjongClient::untrack(grpc::ClientContext *context) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_inFlight.erase(context);
  if (m_inFlight.empty()) m_idle.notify_all();
}

// One unary call: `start` hands it to gRPC's callback API; the completion, on a gRPC thread, only copies
// the answer into an event queued for this object's thread, where `deliver` emits the signal.
template <class Request, class Response, class Start, class Deliver>
quint64 MahjongClient::call(const Request &request, Start start, Deliver deliver) {
  struct Call {
    grpc::ClientContext context;
    Request request;
    Response response;
  };
  auto c = std::make_shared<Call>();
  c->request = request;
  c->context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(m_timeoutMs));
  const quint64 id = ++m_nextId;
  track(&c->context);
  start(&c->context, &c->request, &c->response, [this, c, id, deliver](grpc::Status status) {
    if (status.ok()) {
      QMetaObject::invokeMethod(
          this, [this, id, deliver, response = std::move(c->response)] { deliver(this, id, response); },
          Qt::QueuedConnection);
    } else {
      QMetaObject::invokeMethod(
          this, [this, id, error = MahjongError::fromStatus(status)] { emit failed(id, error); },
          Qt::QueuedConnection);
    }
    untrack(&c->context);  // the last use of `this`
  });
  return id;
}

quint64 MahjongClient::evaluate(const EvaluateRequest &request) {
  return call<EvaluateRequest, EvaluateResponse>(
      request, [this](auto *ctx, auto *req, auto *resp, auto done) { m_stub->async()->Evaluate(ctx, req, resp, done); },
      [](MahjongClient *self, quint64 id, const EvaluateResponse &r) { emit self->evaluated(id, r); });
}

quint64 MahjongClient::analyze(const AnalyzeRequest &request) {
  return call<AnalyzeRequest, AnalyzeResponse>(
      request, [this](auto *ctx, auto *req, auto *resp, auto done) { m_stub->async()->Analyze(ctx, req, resp, done); },
      [](MahjongClient *self, quint64 id, const AnalyzeResponse &r) { emit self->analyzed(id, r); });
}

quint64 MahjongClient::listFans(const ListFansRequest &request) {
  return call<ListFansRequest, ListFansResponse>(
      request, [this](auto *ctx, auto *req, auto *resp, auto done) { m_stub->async()->ListFans(ctx, req, resp, done); },
      [](MahjongClient *self, quint64 id, const ListFansResponse &r) { emit self->fansListed(id, r); });
}

quint64 MahjongClient::evaluateBatch(const EvaluateBatchRequest &request) {
  return call<EvaluateBatchRequest, EvaluateBatchResponse>(
      request,
      [this](auto *ctx, auto *req, auto *resp, auto done) { m_stub->async()->EvaluateBatch(ctx, req, resp, done); },
      [](MahjongClient *self, quint64 id, const EvaluateBatchResponse &r) { emit self->batchEvaluated(id, r); });
}

// -- Play -------------------------------------------------------------------------------------------

// The stream itself. gRPC calls its On* methods on its own threads; they touch only this object's state
// (under the mutex) and queue signals to the PlayTable's thread. gRPC allows one write in flight, so
// requests wait in a queue. The PlayTable owns the reactor and outlives the stream (see ~PlayTable).
class PlayReactor : public grpc::ClientBidiReactor<PlayRequest, PlayResponse> {
 public:
  PlayReactor(MahjongEngine::Stub *stub, PlayTable *table) : m_table(table) {
    stub->async()->Play(&m_context, this);
    StartRead(&m_response);
    StartCall();
  }

  void send(const PlayRequest &request) {
    std::lock_guard<std::recursive_mutex> lock(m_mutex);
    if (m_done || m_finishing) return;
    m_queue.push_back(request);  // a deque: the element being written keeps its address
    if (!m_writing) {
      m_writing = true;
      StartWrite(&m_queue.front());
    }
  }

  void finish() {
    std::lock_guard<std::recursive_mutex> lock(m_mutex);
    if (m_done || m_finishing) return;
    m_finishing = true;
    if (!m_writing) StartWritesDone();
  }

  void cancelAndWait() {
    m_context.TryCancel();
    std::unique_lock<std::recursive_mutex> lock(m_mutex);
    m_doneCondition.wait(lock, [this] { return m_done; });
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard<std::recursive_mutex> lock(m_mutex);
    m_queue.pop_front();
    if (!ok) {  // the stream is broken; OnDone tells why
      m_queue.clear();
      m_writing = false;
      return;
    }
    if (!m_queue.empty()) {
      StartWrite(&m_queue.front());
    } else {
      m_writing = false;
      if (m_finishing) StartWritesDone();
    }
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // no more answers; OnDone follows
    PlayTable *table = m_table;
    QMetaObject::invokeMethod(table, [table, response = m_response] { emit table->answered(response); },
                              Qt::QueuedConnection);
    StartRead(&m_response);
  }

  void OnDone(const grpc::Status &status) override {
    PlayTable *table = m_table;
    MahjongError error = MahjongError::fromStatus(status);
    QMetaObject::invokeMethod(table, [table, error] { emit table->closed(error); }, Qt::QueuedConnection);
    std::lock_guard<std::recursive_mutex> lock(m_mutex);
    m_done = true;
    m_doneCondition.notify_all();
  }

 private:
  PlayTable *m_table;
  grpc::ClientContext m_context;
  PlayResponse m_response;
  std::recursive_mutex m_mutex;
  std::condition_variable_any m_doneCondition;
  std::deque<PlayRequest> m_queue;
  bool m_writing = false;
  bool m_finishing = false;
  bool m_done = false;
};

PlayTable *MahjongClient::openTable(QObject *parent) { return new PlayTable(m_stub.get(), parent ? parent : this); }

PlayTable::PlayTable(MahjongEngine::Stub *stub, QObject *parent) : QObject(parent) {
  m_reactor = std::make_unique<PlayReactor>(stub, this);
}

PlayTable::~PlayTable() { m_reactor->cancelAndWait(); }

void PlayTable::send(const PlayRequest &request) { m_reactor->send(request); }

void PlayTable::finish() { m_reactor->finish(); }
