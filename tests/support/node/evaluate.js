// Calls mahjong.v1.MahjongEngine/Evaluate from Node.js with stubs built at run time from the
// repository's .proto, as a Unity (C#) or Qt (C++) client would from generated code.
// Usage: node evaluate.js HOST:PORT '<EvaluateRequest as JSON>'   -> prints one JSON line.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const fs = require('fs');

const PROTO = path.resolve(__dirname, '..', '..', '..', 'proto', 'mahjong', 'v1', 'mahjong.proto');
// The service config the project publishes: retry a call refused with UNAVAILABLE (a worker restarting).
const SERVICE_CONFIG = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'deploy', 'service_config.json'), 'utf8');

function main() {
  const [address, requestJson] = process.argv.slice(2);
  const definition = protoLoader.loadSync(PROTO, {
    keepCase: true, // field names as in the .proto (is_win, winning_tile)
    enums: String, // enum values by name (TILE_M1)
    longs: Number,
    defaults: true,
    oneofs: true,
  });
  const mahjong = grpc.loadPackageDefinition(definition).mahjong.v1;
  const client = new mahjong.MahjongEngine(address, grpc.credentials.createInsecure(),
    { 'grpc.service_config': SERVICE_CONFIG });
  const request = JSON.parse(requestJson);
  const deadline = new Date(Date.now() + 10000);
  client.Evaluate(request, { deadline }, (err, response) => {
    if (err) {
      console.log(JSON.stringify({ error: { code: grpc.status[err.code], details: err.details } }));
    } else {
      console.log(JSON.stringify({ response }));
    }
    client.close();
  });
}

main();
