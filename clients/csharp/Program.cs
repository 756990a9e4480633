// dotnet run -- [GATEWAY_URL]: scores the README's hand through `mjsvc web` and prints its fans.
using System;
using System.Threading.Tasks;
using Mahjong.V1;
using MahjongSample;

static class Program
{
    static async Task<int> Main(string[] args)
    {
        using var engine = new MahjongEngineClient(args.Length > 0 ? args[0] : "http://127.0.0.1:8080");
        var request = new EvaluateRequest
        {
            RuleSet = "mcr",
            Hand = new Hand { WinningTile = Tile.S1 },
            Context = new WinContext { SelfDrawn = true, SeatWind = Wind.East, PrevalentWind = Wind.South, Flowers = 2 },
        };
        request.Hand.Concealed.Add(Tiles.Parse("123m456p789s1sEEE"));
        try
        {
            var answer = await engine.EvaluateAsync(request);
            foreach (var fan in answer.Best.Fans)
                Console.WriteLine($"fan {fan.Id} {fan.Name} ({fan.NameZh}) {fan.Points} x{fan.Count}");
            Console.WriteLine($"total: {answer.Best.Total}");
            return 0;
        }
        catch (MahjongException e)
        {
            Console.WriteLine($"error: {e.Code} {e.Reason} {e.Field}: {e.Message}");
            return 2;
        }
    }
}
