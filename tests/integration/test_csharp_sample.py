"""clients/csharp: what can be checked here without a .NET SDK (none in Debian, NuGet unreachable).

protoc's C# generator (Debian's protoc) must accept the .proto and put the messages in namespace Mahjong.V1, and every
generated name the sample uses (messages, properties, enum members, RPCs) must exist in that generated code,
so the sample stays in line with the contract as the contract grows.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from server_harness import ROOT

from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

SAMPLE = ROOT / "clients" / "csharp"
SOURCES = sorted(SAMPLE.rglob("*.cs"))


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> str:
    protoc = shutil.which("protoc")  # grpcio-tools' protoc has no C# generator; Debian's has
    if not protoc:
        pytest.skip("protoc not installed (Debian: protobuf-compiler; .ci/run installs it)")
    out = tmp_path_factory.mktemp("csharp")
    proc = subprocess.run([protoc, f"-I{ROOT / 'proto'}", f"--csharp_out={out}",
                           "mahjong/v1/mahjong.proto"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no warnings either
    files = list(out.glob("*.cs"))
    assert [f.name for f in files] == ["Mahjong.cs"]
    return files[0].read_text()


def sample_text() -> str:
    return "\n".join(p.read_text() for p in SOURCES)


def test_namespace(generated: str) -> None:
    assert re.search(r"^namespace Mahjong\.V1 \{", generated, re.M)
    assert "public sealed partial class EvaluateRequest" in generated
    assert all("using Mahjong.V1;" in p.read_text() for p in SOURCES)


def test_enum_members_used_exist(generated: str) -> None:
    used = set(re.findall(r"\b(Tile|Wind)\.([A-Z]\w*)", sample_text()))
    assert used, "the sample names no tile or wind"
    for enum, member in used:
        assert re.search(rf'OriginalName\("{enum.upper()}_\w+"\)\] {member} = ', generated), f"{enum}.{member}"


def test_properties_used_exist(generated: str) -> None:
    text = sample_text()
    # Object initialisers of generated messages: new EvaluateRequest { RuleSet = ..., Hand = ... }
    uses = [(cls, prop) for cls, body in re.findall(r"new (\w+)\s*\{([^{}]*)\}", text)
            if f"partial class {cls} " in generated for prop in re.findall(r"(\w+) =", body)]
    # Members read from answers and requests.
    uses += [("Fan", m) for m in re.findall(r"\bfan\.(\w+)", text)]
    uses += [("EvaluateResponse", m) for m in re.findall(r"\banswer\.(\w+)", text)]
    uses += [("Scoring", m) for m in re.findall(r"\banswer\.Best\.(\w+)", text)]
    uses += [("Hand", m) for m in re.findall(r"\bHand\.(Concealed|Melds|WinningTile)\b", text)]
    assert len(uses) > 15
    for cls, prop in uses:
        block = generated.split(f"public sealed partial class {cls} ", 1)[1].split("public sealed partial class", 1)[0]
        assert re.search(rf"public [\w.:<>]+ {prop} \{{", block), f"{cls}.{prop} is not generated"


def test_rpcs_used_exist() -> None:
    rpcs = {m.name for m in pb.DESCRIPTOR.services_by_name["MahjongEngine"].methods}
    called = set(re.findall(r"client\.(\w+)Async\(", sample_text()))
    assert called == rpcs - {"Play"}  # every unary RPC; Play is bidirectional, which grpc-web cannot carry


def test_csproj_builds_from_the_repository_proto() -> None:
    csproj = (SAMPLE / "MahjongSample.csproj").read_text()
    include = re.search(r'<Protobuf Include="([^"]+)"', csproj)
    assert include and (SAMPLE / include.group(1)).resolve() == ROOT / "proto" / "mahjong" / "v1" / "mahjong.proto"
    assert "Grpc.Net.Client.Web" in csproj


def test_no_dotnet_here_is_said() -> None:
    readme = (SAMPLE / "README.md").read_text()
    assert "cannot be built" in readme


