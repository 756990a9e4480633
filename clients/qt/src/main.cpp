// mjqt: a console program on MahjongClient. Every answer arrives as a Qt signal in the event loop.
//
//   mjqt [--server ADDR] evaluate HAND --win TILE [--self-drawn] [--seat W] [--prevalent W] [--flowers N]
//   mjqt [--server ADDR] analyze HAND
//   mjqt [--server ADDR] fans
//   mjqt [--server ADDR] play HAND [HAND ...]    (one Play stream: an Analyze per hand, answers by id)
//
// Exit status: 0 answered, 1 usage or transport failure, 2 the server refused the request.
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

#include "mahjongclient.h"
#include "notation.h"

using namespace mahjong::v1;

namespace {

QTextStream &out() {
  static QTextStream stream(stdout);
  return stream;
}

const char *shapeName(int shape) {
  switch (shape) {
    case SHAPE_KIND_STANDARD: return "standard";
    case SHAPE_KIND_SEVEN_PAIRS: return "seven pairs";
    case SHAPE_KIND_THIRTEEN_ORPHANS: return "thirteen orphans";
    case SHAPE_KIND_HONORS_AND_KNITTED: return "honours and knitted";
    case SHAPE_KIND_KNITTED_STRAIGHT: return "knitted straight";
    default: return "unknown";
  }
}

void printScoring(const Scoring &s) {
  QStringList sets;
  for (const TileSet &set : s.decomposition().sets()) sets << notation::tilesText(set.tiles());
  if (!s.decomposition().knitted().empty()) sets << notation::tilesText(s.decomposition().knitted());
  out() << "decomposition: " << shapeName(s.decomposition().shape()) << " " << sets.join(QLatin1Char(' ')) << "\n";
  for (const Fan &f : s.fans())
    out() << "fan " << f.id() << " " << QString::fromStdString(f.name()) << " ("
          << QString::fromStdString(f.name_zh()) << ") " << f.points() << " x" << f.count() << "\n";
  out() << "total: " << s.total() << "\n";
}

void printCounts(const char *label, const google::protobuf::RepeatedPtrField<TileCount> &counts) {
  QStringList parts;
  for (const TileCount &c : counts) parts << notation::tileName(c.tile()) + QLatin1Char(':') + QString::number(c.remaining());
  out() << label << ": " << parts.join(QLatin1Char(' ')) << "\n";
}

void printAnalysis(const AnalyzeResponse &a) {
  out() << "shanten: " << a.shanten() << "\n";
  if (!a.waits().empty()) printCounts("waits", a.waits());
  if (!a.useful_tiles().empty()) printCounts("useful", a.useful_tiles());
  for (const DiscardOption &d : a.discards())
    out() << "discard " << notation::tileName(d.tile()) << " shanten " << d.shanten() << " useful " << d.useful_count()
          << "\n";
}

void printError(const MahjongError &e) {
  out() << "error: " << e.codeName << " " << (e.reason.isEmpty() ? QStringLiteral("-") : e.reason) << " "
        << (e.field.isEmpty() ? QStringLiteral("-") : e.field) << ": " << e.message << "\n";
}

std::vector<Tile> tilesOrExit(const QString &text, const char *what) {
  QString error;
  auto tiles = notation::parseTiles(text, &error);
  if (!tiles) {
    std::fprintf(stderr, "%s %s: %s\n", what, qPrintable(text), qPrintable(error));
    std::exit(1);
  }
  return *tiles;
}

Hand handOf(const QString &text) {
  Hand hand;
  for (Tile t : tilesOrExit(text, "hand")) hand.add_concealed(t);
  return hand;
}

}  // namespace

int main(int argc, char *argv[]) {
  QCoreApplication app(argc, argv);
  QCoreApplication::setApplicationName(QStringLiteral("mjqt"));
#if QT_VERSION < QT_VERSION_CHECK(6, 0, 0)
  out().setCodec("UTF-8");
#endif
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("mjsvc from Qt: evaluate, analyze, fans, play"));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("command"), QStringLiteral("evaluate, analyze, fans or play"));
  parser.addPositionalArgument(QStringLiteral("hands"), QStringLiteral("hands in mjsvc notation"), QStringLiteral("[hand...]"));
  QCommandLineOption server(QStringLiteral("server"), QStringLiteral("gRPC address"), QStringLiteral("address"),
                            QStringLiteral("127.0.0.1:50051"));
  QCommandLineOption ruleSet(QStringLiteral("rule-set"), QStringLiteral("rule set"), QStringLiteral("name"), QStringLiteral("mcr"));
  QCommandLineOption win(QStringLiteral("win"), QStringLiteral("the winning tile"), QStringLiteral("tile"));
  QCommandLineOption selfDrawn(QStringLiteral("self-drawn"), QStringLiteral("won by self-draw"));
  QCommandLineOption seat(QStringLiteral("seat"), QStringLiteral("seat wind E S W N"), QStringLiteral("wind"), QStringLiteral("E"));
  QCommandLineOption prevalent(QStringLiteral("prevalent"), QStringLiteral("prevalent wind"), QStringLiteral("wind"), QStringLiteral("E"));
  QCommandLineOption flowers(QStringLiteral("flowers"), QStringLiteral("flower tiles"), QStringLiteral("n"), QStringLiteral("0"));
  parser.addOptions({server, ruleSet, win, selfDrawn, seat, prevalent, flowers});
  parser.process(app);
  const QStringList args = parser.positionalArguments();
  if (args.isEmpty()) parser.showHelp(1);
  const QString command = args.first();

  MahjongClient client(parser.value(server));
  int status = 0;
  QObject::connect(&client, &MahjongClient::failed, [&](quint64, const MahjongError &e) {
    printError(e);
    app.exit(e.code == grpc::StatusCode::INVALID_ARGUMENT ? 2 : 1);
  });
  QTimer::singleShot(30000, &app, [&] {
    std::fprintf(stderr, "no answer within 30 s\n");
    app.exit(1);
  });

  if (command == QLatin1String("evaluate") && args.size() == 2) {
    EvaluateRequest request;
    request.set_rule_set(parser.value(ruleSet).toStdString());
    *request.mutable_hand() = handOf(args.at(1));
    if (parser.isSet(win)) {
      auto w = tilesOrExit(parser.value(win), "--win");
      if (w.size() == 1) request.mutable_hand()->set_winning_tile(w.front());
    }
    WinContext *ctx = request.mutable_context();
    ctx->set_self_drawn(parser.isSet(selfDrawn));
    ctx->set_seat_wind(notation::parseWind(parser.value(seat)).value_or(WIND_EAST));
    ctx->set_prevalent_wind(notation::parseWind(parser.value(prevalent)).value_or(WIND_EAST));
    ctx->set_flowers(parser.value(flowers).toInt());
    QObject::connect(&client, &MahjongClient::evaluated, [&](quint64, const EvaluateResponse &r) {
      out() << "win: " << (r.is_win() ? "yes" : "no") << "\n";
      if (r.is_win()) printScoring(r.best());
      for (const Scoring &alt : r.alternatives()) {
        out() << "alternative:\n";
        printScoring(alt);
      }
      app.exit(0);
    });
    client.evaluate(request);
  } else if (command == QLatin1String("analyze") && args.size() == 2) {
    AnalyzeRequest request;
    request.set_rule_set(parser.value(ruleSet).toStdString());
    *request.mutable_hand() = handOf(args.at(1));
    QObject::connect(&client, &MahjongClient::analyzed, [&](quint64, const AnalyzeResponse &a) {
      printAnalysis(a);
      app.exit(0);
    });
    client.analyze(request);
  } else if (command == QLatin1String("fans") && args.size() == 1) {
    ListFansRequest request;
    request.set_rule_set(parser.value(ruleSet).toStdString());
    QObject::connect(&client, &MahjongClient::fansListed, [&](quint64, const ListFansResponse &r) {
      out() << "rule set: " << QString::fromStdString(r.rule_set()) << ", minimum " << r.min_points() << "\n";
      for (const FanDefinition &f : r.fans())
        out() << f.id() << " " << QString::fromStdString(f.name()) << " " << f.points() << "\n";
      app.exit(0);
    });
    client.listFans(request);
  } else if (command == QLatin1String("play") && args.size() >= 2) {
    PlayTable *table = client.openTable();
    int pending = int(args.size()) - 1;
    QObject::connect(table, &PlayTable::answered, [&, table](const PlayResponse &r) {
      out() << "answer " << QString::fromStdString(r.id()) << ": ";
      if (r.has_analyze()) {
        out() << "analyze\n";
        printAnalysis(r.analyze());
      } else if (r.has_evaluate()) {
        out() << "evaluate total " << r.evaluate().best().total() << "\n";
      } else {
        out() << "error " << QString::fromStdString(r.error().reason()) << " "
              << QString::fromStdString(r.error().field()) << ": " << QString::fromStdString(r.error().message()) << "\n";
      }
      if (--pending == 0) table->finish();  // all answered: close our side, the server ends the stream
    });
    QObject::connect(table, &PlayTable::closed, [&](const MahjongError &e) {
      out() << "stream closed: " << e.codeName << "\n";
      app.exit(e.code == 0 && pending == 0 ? 0 : 1);
    });
    for (int i = 1; i < args.size(); ++i) {
      PlayRequest request;
      request.set_id(QStringLiteral("t%1").arg(i).toStdString());
      request.mutable_analyze()->set_rule_set(parser.value(ruleSet).toStdString());
      // A hand that does not parse goes out as it is (empty) so the server's error comes back by id.
      QString error;
      auto tiles = notation::parseTiles(args.at(i), &error);
      if (tiles)
        for (Tile t : *tiles) request.mutable_analyze()->mutable_hand()->add_concealed(t);
      table->send(request);
    }
  } else {
    parser.showHelp(1);
  }
  status = app.exec();
  out().flush();
  return status;
}
