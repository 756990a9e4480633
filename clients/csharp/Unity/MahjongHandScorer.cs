// A Unity component: scores a hand through `mjsvc web` without blocking the main thread. Put it on a
// GameObject with MahjongEngineClient.cs and the generated Mahjong.cs in the project (see README.md).
// Unity resumes `await` on its main thread (UnitySynchronizationContext), so the answer can touch scene objects.
using Mahjong.V1;
using MahjongSample;
using UnityEngine;

public class MahjongHandScorer : MonoBehaviour
{
    [SerializeField] string gatewayUrl = "http://127.0.0.1:8080";
    [SerializeField] string hand = "123m456p789s1sEEE";
    [SerializeField] string winningTile = "1s";

    MahjongEngineClient engine;

    void Awake() => engine = new MahjongEngineClient(gatewayUrl);

    void OnDestroy() => engine?.Dispose();

    async void Start()
    {
        var request = new EvaluateRequest
        {
            Hand = new Hand { WinningTile = Tiles.Parse(winningTile)[0] },
            Context = new WinContext { SelfDrawn = true, SeatWind = Wind.East, PrevalentWind = Wind.South },
        };
        request.Hand.Concealed.Add(Tiles.Parse(hand));
        try
        {
            var answer = await engine.EvaluateAsync(request);
            if (!answer.IsWin) { Debug.Log($"{hand}+{winningTile}: not a win"); return; }
            foreach (var fan in answer.Best.Fans) Debug.Log($"{fan.Name} {fan.Points} x{fan.Count}");
            Debug.Log($"total {answer.Best.Total}");
        }
        catch (MahjongException e)
        {
            Debug.LogWarning($"{e.Reason} at {e.Field}: {e.Message}");  // e.g. TILE_COUNT at hand.concealed
        }
    }
}
