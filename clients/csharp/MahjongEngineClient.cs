// The mjsvc engine from C# over grpc-web: what a Unity game (WebGL included) uses, since Unity's
// networking has no HTTP/2 for plain gRPC. Point it at `mjsvc web` (default http://127.0.0.1:8080).
using System;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Google.Rpc;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Web;
using Mahjong.V1;

namespace MahjongSample
{
    /// <summary>A failed call as the service describes it: status, stable reason (e.g. TILE_COUNT), field.</summary>
    public sealed class MahjongException : Exception
    {
        public StatusCode Code { get; }
        public string Reason { get; }
        public string Field { get; }

        public MahjongException(RpcException e) : base(e.Status.Detail, e)
        {
            Code = e.StatusCode;
            var status = e.GetRpcStatus();  // grpc-status-details-bin, as the gateway passes it through
            Reason = status?.GetDetail<ErrorInfo>()?.Reason ?? "";
            Field = status?.GetDetail<BadRequest>()?.FieldViolations.FirstOrDefault()?.Field ?? "";
        }
    }

    public sealed class MahjongEngineClient : IDisposable
    {
        readonly GrpcChannel channel;
        readonly MahjongEngine.MahjongEngineClient client;

        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);

        public MahjongEngineClient(string gatewayUrl)
        {
            // GrpcWebMode.GrpcWeb (binary) is what `mjsvc web` answers most compactly; GrpcWebText works too.
            var handler = new GrpcWebHandler(GrpcWebMode.GrpcWeb, new HttpClientHandler());
            channel = GrpcChannel.ForAddress(gatewayUrl, new GrpcChannelOptions { HttpHandler = handler });
            client = new MahjongEngine.MahjongEngineClient(channel);
        }

        public Task<EvaluateResponse> EvaluateAsync(EvaluateRequest request, CancellationToken cancel = default) =>
            Call(() => client.EvaluateAsync(request, deadline: DateTime.UtcNow + Timeout, cancellationToken: cancel));

        public Task<AnalyzeResponse> AnalyzeAsync(AnalyzeRequest request, CancellationToken cancel = default) =>
            Call(() => client.AnalyzeAsync(request, deadline: DateTime.UtcNow + Timeout, cancellationToken: cancel));

        public Task<ListFansResponse> ListFansAsync(string ruleSet, CancellationToken cancel = default) =>
            Call(() => client.ListFansAsync(new ListFansRequest { RuleSet = ruleSet },
                deadline: DateTime.UtcNow + Timeout, cancellationToken: cancel));

        public Task<EvaluateBatchResponse> EvaluateBatchAsync(EvaluateBatchRequest request,
            CancellationToken cancel = default) =>
            Call(() => client.EvaluateBatchAsync(request, deadline: DateTime.UtcNow + Timeout,
                cancellationToken: cancel));

        // The referee: the hand's whole log in each call (docs/referee.md).
        public Task<LegalResponse> LegalAsync(HandLog log, CancellationToken cancel = default) =>
            Call(() => client.LegalAsync(new LegalRequest { Log = log }, deadline: DateTime.UtcNow + Timeout,
                cancellationToken: cancel));

        public Task<SettleResponse> SettleAsync(HandLog log, CancellationToken cancel = default) =>
            Call(() => client.SettleAsync(new SettleRequest { Log = log }, deadline: DateTime.UtcNow + Timeout,
                cancellationToken: cancel));

        // Play is a bidirectional stream, which grpc-web cannot carry: a WebGL build sends each table's
        // requests as unary calls (or batches them with EvaluateBatch).

        static async Task<T> Call<T>(Func<AsyncUnaryCall<T>> start)
        {
            try
            {
                return await start().ResponseAsync.ConfigureAwait(false);
            }
            catch (RpcException e)
            {
                throw new MahjongException(e);
            }
        }

        public void Dispose() => channel.Dispose();
    }

    /// <summary>Small helpers to build requests: tiles from the notation the service documents.</summary>
    public static class Tiles
    {
        /// <summary>"123m456p789s1sEEE" -> tiles; honours 1z-7z or E S W N C F P (C red, F green, P white).</summary>
        public static Tile[] Parse(string text)
        {
            var tiles = new System.Collections.Generic.List<Tile>();
            var digits = new System.Collections.Generic.List<int>();
            foreach (var c in text)
            {
                if (char.IsWhiteSpace(c)) continue;
                if (c >= '1' && c <= '9') { digits.Add(c - '0'); continue; }
                var suit = "mps".IndexOf(c);
                if (suit >= 0) { tiles.AddRange(digits.Select(d => (Tile)(suit * 9 + d))); digits.Clear(); continue; }
                if (c == 'z')
                {
                    tiles.AddRange(digits.Select(d => d <= 4 ? (Tile)(27 + d) : (Tile)(39 - d)));  // 5z white 6z green 7z red
                    digits.Clear();
                    continue;
                }
                var honour = "ESWNCFP".IndexOf(c);
                if (honour < 0 || digits.Count > 0) throw new ArgumentException($"'{c}' is not a tile", nameof(text));
                tiles.Add((Tile)(28 + honour));
            }
            if (digits.Count > 0) throw new ArgumentException("digits without a suit letter", nameof(text));
            return tiles.ToArray();
        }
    }
}
