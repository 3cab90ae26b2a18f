#!/bin/sh
# The documentation holds together:
#   - every relative link of README.md and docs/*.md reaches a file, and its
#     #anchor a heading there (as GitHub renders them);
# and docs/rules.md documents every rule id the tool reports, and SARIF links to it:
#   - every rule of check's and verify's SARIF catalogues (the loader's, the
#     alias, torchgen, custom-operator and extraction rules, the verdicts), and
#     every id the sources pass as a literal to a function's `rule` parameter,
#     has a section whose heading is the id (GitHub's anchor #id);
#   - each rule's helpUri is the docs/rules.md URL with that anchor, and the
#     anchors of real findings (check on a yaml, verify) exist;
#   - in each section, the example after "Wrong:" reports the rule and the one
#     after "Right:" does not, when the example is a yaml (```yaml; ```yaml
#     tags.yaml for a tags.yaml; ```yaml autogen for what `autogen` reports),
#     a source (```cpp, ```python) or a schema list (```schema); sections of
#     rules `check` reports need both, except those whose input cannot be
#     written in a page (EXEMPT below).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "skipped: no python3 to read the SARIF logs"; exit 77; }

printf -- '- func: abs(Tensor self) -> Tensor\n' >"$tmp/clean.yaml"
"$TA" check --format sarif "$tmp/clean.yaml" >"$tmp/check.sarif" || fail "check of a clean yaml exited $?"
# a verify run with a finding: the wrong kernels' plugin
"$TA" verify --no-default-kernels --kernels "$BUILD/tests/plugins/libwrongkernels.so" --cases 4 \
    --ops 'mylib::writes_input' --ops 'mylib::view_copy' --format sarif >"$tmp/verify.sarif" 2>"$tmp/verify.err"
[ $? -eq 1 ] || { cat "$tmp/verify.err"; fail "verify of the wrong kernels did not report findings"; }

python3 - "$TA" "$tmp" "$BUILD/share/tensoralias/tags.yaml" <<'EOF'
import json, os, re, shutil, subprocess, sys

ta, tmp, tags = sys.argv[1], sys.argv[2], sys.argv[3]
page = open("docs/rules.md", encoding="utf-8").read()
bad = []

# Inputs a page cannot hold (a read error, a NUL byte, a schema of 65 sets),
# and autogen-no-plan, which no known yaml reaches (its section says so).
EXEMPT = {"io", "yaml-binary", "extract-io", "alias-limits", "autogen-no-plan"}

def headings(lines):
    """(line index, level, title, anchor) of each heading outside fences. GitHub's
    anchors: lower case, punctuation but '-' and '_' dropped, spaces to '-',
    a repeated anchor numbered."""
    out, seen, fence = [], {}, False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        level = len(line) - len(line.lstrip("#"))
        title = line[level:].strip()
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.append((i, level, title, slug if n == 0 else f"{slug}-{n}"))
    return out

# Links between the pages.
pages = ["README.md"] + sorted(os.path.join("docs", f) for f in os.listdir("docs") if f.endswith(".md"))
for p in pages:
    text = open(p, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(p), path)) if path else p
        if not os.path.exists(dest):
            bad.append(f"{p}: link to {target}: no such file")
        elif frag and dest.endswith(".md"):
            marks = {h[3] for h in headings(open(dest, encoding="utf-8").read().split("\n"))}
            if frag not in marks:
                bad.append(f"{p}: link to {target}: no such heading")

lines = page.split("\n")
anchors, sections, heading_lines = set(), {}, []
for i, level, title, anchor in headings(lines):
    heading_lines.append(i)
    anchors.add(anchor)
    if level == 3:
        if title in sections:
            bad.append(f"two sections for {title}")
        sections[title] = i

def section_text(rule):
    """The lines of a rule's section, up to the next heading of any level."""
    start = sections[rule] + 1
    later = [i for i in heading_lines if i >= start]
    return lines[start:later[0] if later else len(lines)]

def example(body, label):
    """The fenced block after a line "label:", as (info string, text)."""
    for k, line in enumerate(body):
        if line.strip() == label + ":":
            for j in range(k + 1, len(body)):
                if body[j].startswith("```"):
                    info = body[j][3:].strip()
                    end = body.index("```", j + 1)
                    return info, "\n".join(body[j + 1:end]) + "\n"
    return None, None

def run(info, text, name):
    """Runs check on the example; the rule ids it reports."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    words = info.split()
    lang = words[0] if words else ""
    if lang == "yaml" and words[1:] == ["tags.yaml"]:
        open(os.path.join(d, "tags.yaml"), "w").write(text)
        open(os.path.join(d, "native_functions.yaml"), "w").write("- func: abs(Tensor self) -> Tensor\n")
        args = [os.path.join(d, "native_functions.yaml")]
    elif lang == "yaml":
        shutil.copy(tags, os.path.join(d, "tags.yaml"))
        open(os.path.join(d, "native_functions.yaml"), "w").write(text)
        args = [os.path.join(d, "native_functions.yaml")]
        if words[1:] == ["autogen"]: # what autogen alone reports: its text diagnostics
            r = subprocess.run([ta, "autogen", "--notes"] + args, capture_output=True, text=True)
            return set(re.findall(r"\[([a-z0-9-]+)\]$", r.stderr, flags=re.M))
    elif lang in ("cpp", "python"):
        open(os.path.join(d, "ops.cpp" if lang == "cpp" else "ops.py"), "w").write(text)
        args = ["--no-git", d]
    elif lang == "schema":
        open(os.path.join(d, "schemas.txt"), "w").write(text)
        args = ["--schemas", os.path.join(d, "schemas.txt")]
    else:
        return None
    r = subprocess.run([ta, "check", "--notes", "--format", "json"] + args, capture_output=True, text=True)
    return {json.loads(l)["rule"] for l in r.stdout.splitlines() if l.strip()}

def catalogue(path):
    log = json.load(open(path))
    run0 = log["runs"][0]
    return run0["tool"]["driver"]["rules"], run0["results"]

def help_anchor(rule):
    uri = rule.get("helpUri", "")
    base, _, frag = uri.partition("#")
    if not base.startswith("https://") or not base.endswith("docs/rules.md") or frag != rule["id"]:
        bad.append(f"{rule['id']}: helpUri {uri!r} is not docs/rules.md#{rule['id']}")
    elif frag not in anchors:
        bad.append(f"{rule['id']}: helpUri's anchor #{frag} is not in docs/rules.md")

check_rules, _ = catalogue(os.path.join(tmp, "check.sarif"))
verify_rules, verify_results = catalogue(os.path.join(tmp, "verify.sarif"))
for r in check_rules + verify_rules:
    if r["id"] not in sections:
        bad.append(f"rule {r['id']} has no section (### {r['id']}) in docs/rules.md")
    help_anchor(r)
if not verify_results:
    bad.append("verify's SARIF log has no result to follow to its rule")

# Ids outside the catalogues: string literals given to a parameter named
# `rule` (ta_diag_error/warning/note, ta_diag_emit and every wrapper).
funcs = {}
srcs = [os.path.join(dp, f) for root in ("include", "src", "tools/tensoralias") for dp, _, fs in os.walk(root)
        for f in fs if f.endswith((".c", ".h", ".cpp"))]
texts = {p: re.sub(r"/\*.*?\*/", "", open(p, encoding="utf-8").read(), flags=re.S) for p in srcs}
for s in texts.values():
    for m in re.finditer(r"\b([a-z_]\w*)\s*\(([^()]*?\bconst char \*rule\b[^()]*)\)", s):
        params = [p.strip() for p in m.group(2).split(",")]
        funcs[m.group(1)] = next(k for k, p in enumerate(params) if re.search(r"\*rule$", p))
adhoc = set()
for s in texts.values():
    macros = dict(re.findall(r'#define\s+(\w+)\s+"([a-z][a-z0-9-]*)"', s))
    for name, k in funcs.items():
        for m in re.finditer(r"\b%s\s*\(" % name, s):
            args, depth, cur, j = [], 0, "", m.end()
            while j < len(s) and len(args) <= k:
                c = s[j]
                if c in "([{": depth += 1
                if c in ")]}":
                    if depth == 0: break
                    depth -= 1
                if c == "," and depth == 0:
                    args.append(cur.strip()); cur = ""
                else:
                    cur += c
                j += 1
            args.append(cur.strip())
            if len(args) > k:
                a = args[k]
                lit = re.fullmatch(r'"([a-z][a-z0-9-]*)"', a)
                if lit: adhoc.add(lit.group(1))
                elif a in macros: adhoc.add(macros[a])
for rule in sorted(adhoc):
    if rule not in sections:
        bad.append(f"id {rule} (reported by the sources) has no section in docs/rules.md")
known = adhoc | {r["id"] for r in check_rules + verify_rules}
for rule in sorted(set(sections) - known):
    bad.append(f"docs/rules.md has a section for {rule}, which nothing reports")

# The examples.
ran = 0
check_ids = {r["id"] for r in check_rules}
for rule in sorted(sections):
    body = section_text(rule)
    for label, want in (("Wrong", True), ("Right", False)):
        info, text = example(body, label)
        got = run(info, text, f"{rule}-{label}") if info is not None else None
        if got is None:
            if rule in check_ids and rule not in EXEMPT:
                bad.append(f"{rule}: no runnable {label} example")
            continue
        ran += 1
        if (rule in got) != want:
            bad.append(f"{rule}: the {label} example {'does not report' if want else 'reports'} it ({sorted(got)})")

# A real finding's way to its section: check's SARIF on a misnamed out= argument.
d = os.path.join(tmp, "finding")
os.makedirs(d)
open(os.path.join(d, "native_functions.yaml"), "w").write(
    "- func: abs.out(Tensor self, *, Tensor(a!) out0) -> Tensor(a!)\n")
r = subprocess.run([ta, "check", "--format", "sarif", os.path.join(d, "native_functions.yaml")],
                   capture_output=True, text=True)
found = json.loads(r.stdout)["runs"][0]
if not found["results"]:
    bad.append("check found nothing in a yaml with a misnamed out= argument")
for res in found["results"]:
    help_anchor(found["tool"]["driver"]["rules"][res["ruleIndex"]])
for res in verify_results:
    help_anchor(verify_rules[res["ruleIndex"]])

for b in bad:
    print("FAIL:", b)
print(f"{len(pages)} pages, {len(sections)} rule sections, {len(check_rules)} check rules, {len(verify_rules)} verdicts, "
      f"{len(adhoc)} ids from the sources' rule arguments, {ran} examples run")
sys.exit(1 if bad else 0)
EOF
