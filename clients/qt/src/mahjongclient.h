// MahjongClient: the mjsvc gRPC service for Qt programs, without blocking the Qt thread.
//
// Every call goes out through gRPC's callback API and returns at once with a call id; its answer (or its
// failure) arrives later as a signal, emitted on the thread the client object lives in (the GUI thread
// in a widget program), never on a gRPC thread. A table's Play stream is a PlayTable object: send()
// requests as the game goes, answers arrive as answered() signals in the order the server sends them.
#pragma once

#include <QObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>

#include <grpcpp/grpcpp.h>

#include "mahjong/v1/mahjong.grpc.pb.h"

// A failed call as the server describes it: gRPC status (code, name, message) plus the service's
// stable reason (google.rpc.ErrorInfo.reason, e.g. TILE_COUNT) and the request field it names.
struct MahjongError {
  int code = 0;          // grpc::StatusCode; 0 (OK) for a stream that ended cleanly
  QString codeName;      // e.g. INVALID_ARGUMENT
  QString message;
  QString reason;        // e.g. TILE_COUNT; empty when the server sent no ErrorInfo
  QString field;         // e.g. hand.concealed; empty when no field is named
  static MahjongError fromStatus(const grpc::Status &status);
};

Q_DECLARE_METATYPE(MahjongError)
Q_DECLARE_METATYPE(mahjong::v1::EvaluateResponse)
Q_DECLARE_METATYPE(mahjong::v1::AnalyzeResponse)
Q_DECLARE_METATYPE(mahjong::v1::ListFansResponse)
Q_DECLARE_METATYPE(mahjong::v1::EvaluateBatchResponse)
Q_DECLARE_METATYPE(mahjong::v1::PlayResponse)

class PlayTable;

class MahjongClient : public QObject {
  Q_OBJECT

 public:
  // `address` as gRPC names it, e.g. "127.0.0.1:50051" or "dns:///mjsvc.example:50051".
  explicit MahjongClient(const QString &address, QObject *parent = nullptr);
  MahjongClient(std::shared_ptr<grpc::Channel> channel, QObject *parent = nullptr);
  // Cancels the calls still in flight and waits for gRPC to let go of them; no signal follows.
  ~MahjongClient() override;

  void setTimeout(int milliseconds) { m_timeoutMs = milliseconds; }

  // Each returns the id its answer will carry.
  quint64 evaluate(const mahjong::v1::EvaluateRequest &request);
  quint64 analyze(const mahjong::v1::AnalyzeRequest &request);
  quint64 listFans(const mahjong::v1::ListFansRequest &request);
  quint64 evaluateBatch(const mahjong::v1::EvaluateBatchRequest &request);

  // A new Play stream for one table; the table is a child of `parent` (default: this client).
  PlayTable *openTable(QObject *parent = nullptr);

 signals:
  void evaluated(quint64 id, const mahjong::v1::EvaluateResponse &response);
  void analyzed(quint64 id, const mahjong::v1::AnalyzeResponse &response);
  void fansListed(quint64 id, const mahjong::v1::ListFansResponse &response);
  void batchEvaluated(quint64 id, const mahjong::v1::EvaluateBatchResponse &response);
  void failed(quint64 id, const MahjongError &error);

 private:
  template <class Request, class Response, class Start, class Deliver>
  quint64 call(const Request &request, Start start, Deliver deliver);
  void track(grpc::ClientContext *context);
  void untrack(grpc::ClientContext *context);

  std::shared_ptr<grpc::Channel> m_channel;
  std::unique_ptr<mahjong::v1::MahjongEngine::Stub> m_stub;
  int m_timeoutMs = 10000;
  quint64 m_nextId = 0;
  std::mutex m_mutex;
  std::condition_variable m_idle;
  std::set<grpc::ClientContext *> m_inFlight;
};

class PlayReactor;

// One table's Play stream. Requests are written in the order send() is called, one at a time as gRPC
// requires; answers are matched to requests by the id the caller puts in each PlayRequest.
class PlayTable : public QObject {
  Q_OBJECT

 public:
  ~PlayTable() override;  // cancels the stream if it is still open and waits for it to end

  void send(const mahjong::v1::PlayRequest &request);
  // No more requests: the server answers what it has and the stream ends with closed().
  void finish();

 signals:
  void answered(const mahjong::v1::PlayResponse &response);
  void closed(const MahjongError &status);  // status.code 0: ended normally

 private:
  friend class MahjongClient;
  friend class PlayReactor;
  PlayTable(mahjong::v1::MahjongEngine::Stub *stub, QObject *parent);
  std::unique_ptr<PlayReactor> m_reactor;
};
