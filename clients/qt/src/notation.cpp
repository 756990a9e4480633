#include "notation.h"

using mahjong::v1::Tile;

namespace notation {

namespace {
// Honour tiles in proto order: east south west north, then the dragons red green white.
constexpr Tile kWinds[4] = {mahjong::v1::TILE_EAST, mahjong::v1::TILE_SOUTH, mahjong::v1::TILE_WEST,
                            mahjong::v1::TILE_NORTH};

std::optional<Tile> honourFromLetter(QChar c) {
  switch (c.toLatin1()) {
    case 'E': return mahjong::v1::TILE_EAST;
    case 'S': return mahjong::v1::TILE_SOUTH;
    case 'W': return mahjong::v1::TILE_WEST;
    case 'N': return mahjong::v1::TILE_NORTH;
    case 'C': return mahjong::v1::TILE_RED;
    case 'F': return mahjong::v1::TILE_GREEN;
    case 'P': return mahjong::v1::TILE_WHITE;
    default: return std::nullopt;
  }
}

std::optional<Tile> numbered(int digit, QChar suit) {
  switch (suit.toLatin1()) {
    case 'm': return digit >= 1 ? std::optional<Tile>(Tile(mahjong::v1::TILE_M1 + digit - 1)) : std::nullopt;
    case 'p': return digit >= 1 ? std::optional<Tile>(Tile(mahjong::v1::TILE_P1 + digit - 1)) : std::nullopt;
    case 's': return digit >= 1 ? std::optional<Tile>(Tile(mahjong::v1::TILE_S1 + digit - 1)) : std::nullopt;
    case 'z':
      if (digit >= 1 && digit <= 4) return kWinds[digit - 1];
      if (digit == 5) return mahjong::v1::TILE_WHITE;
      if (digit == 6) return mahjong::v1::TILE_GREEN;
      if (digit == 7) return mahjong::v1::TILE_RED;
      return std::nullopt;
    default: return std::nullopt;
  }
}
}  // namespace

std::optional<std::vector<Tile>> parseTiles(const QString &text, QString *error) {
  std::vector<Tile> out;
  QList<int> digits;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text.at(i);
    if (c.isSpace()) continue;
    if (c >= QLatin1Char('0') && c <= QLatin1Char('9')) {
      digits.append(c.digitValue());
    } else if (QStringLiteral("mpsz").contains(c)) {
      if (digits.isEmpty()) {
        *error = QStringLiteral("'%1' at %2 follows no digit").arg(c).arg(i);
        return std::nullopt;
      }
      for (int d : digits) {
        auto tile = numbered(d, c);
        if (!tile) {
          *error = QStringLiteral("%1%2 is not a tile").arg(d).arg(c);
          return std::nullopt;
        }
        out.push_back(*tile);
      }
      digits.clear();
    } else if (auto honour = honourFromLetter(c); honour && digits.isEmpty()) {
      out.push_back(*honour);
    } else {
      *error = QStringLiteral("'%1' at %2 is not a tile").arg(c).arg(i);
      return std::nullopt;
    }
  }
  if (!digits.isEmpty()) {
    *error = QStringLiteral("digits at the end without a suit letter");
    return std::nullopt;
  }
  return out;
}

QString tileName(Tile tile) {
  const int v = int(tile);
  if (v >= mahjong::v1::TILE_M1 && v <= mahjong::v1::TILE_S9) {
    const int index = v - 1;
    return QString::number(index % 9 + 1) + QLatin1Char("mps"[index / 9]);
  }
  switch (tile) {
    case mahjong::v1::TILE_EAST: return QStringLiteral("E");
    case mahjong::v1::TILE_SOUTH: return QStringLiteral("S");
    case mahjong::v1::TILE_WEST: return QStringLiteral("W");
    case mahjong::v1::TILE_NORTH: return QStringLiteral("N");
    case mahjong::v1::TILE_RED: return QStringLiteral("C");
    case mahjong::v1::TILE_GREEN: return QStringLiteral("F");
    case mahjong::v1::TILE_WHITE: return QStringLiteral("P");
    default: return QStringLiteral("?");
  }
}

QString tilesText(const google::protobuf::RepeatedField<int> &tiles) {
  // Compact form: digits of one suit share its letter (123m, 11s); honours as letters (EEE).
  QString out;
  QChar suit;
  for (int t : tiles) {
    const QString name = tileName(Tile(t));
    const QChar thisSuit = name.size() == 2 ? name.at(1) : QChar();
    if (!suit.isNull() && thisSuit != suit) out += suit;
    out += thisSuit.isNull() ? name : name.left(1);
    suit = thisSuit;
  }
  if (!suit.isNull()) out += suit;
  return out;
}

std::optional<mahjong::v1::Wind> parseWind(const QString &text) {
  const QString w = text.trimmed().toUpper();
  if (w == QLatin1String("E") || w == QLatin1String("EAST")) return mahjong::v1::WIND_EAST;
  if (w == QLatin1String("S") || w == QLatin1String("SOUTH")) return mahjong::v1::WIND_SOUTH;
  if (w == QLatin1String("W") || w == QLatin1String("WEST")) return mahjong::v1::WIND_WEST;
  if (w == QLatin1String("N") || w == QLatin1String("NORTH")) return mahjong::v1::WIND_NORTH;
  return std::nullopt;
}

}  // namespace notation
