// Tile notation of mjsvc (README "Tiles and notation"): suit groups 123m456p789s, honours as 1z-7z
// (winds 1-4, 5z white, 6z green, 7z red) or the letters E S W N C F P (C red, F green, P white).
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "mahjong/v1/mahjong.pb.h"

namespace notation {

// The tiles of `text`, or nullopt with `error` set for a character that is not a tile.
std::optional<std::vector<mahjong::v1::Tile>> parseTiles(const QString &text, QString *error);

// The canonical short name of a tile: 1m ... 9s, E S W N, C (red) F (green) P (white).
QString tileName(mahjong::v1::Tile tile);

QString tilesText(const google::protobuf::RepeatedField<int> &tiles);

std::optional<mahjong::v1::Wind> parseWind(const QString &text);

}  // namespace notation
