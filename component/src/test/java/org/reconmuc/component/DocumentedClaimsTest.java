package org.reconmuc.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.config.ConfigLoader;

/**
 * The documents' other checkable claims (the documents of {@link DocumentedClassesTest}: the
 * README of the repository and of each module, DESIGN.md, and the index of results; the dated
 * result folders are history and are not checked):
 *
 * <ul>
 *   <li>every repository path in a code span ({@code `scripts/run-local.sh`},
 *       {@code `benchmarks/results/2026-…/README.md`}, {@code `codec/…/batch`}: {@code …} stands for
 *       any folders) exists; build output ({@code target/}) and paths outside the repository
 *       ({@code ../shared/…}) are not checked;</li>
 *   <li>every relative Markdown link and image resolves to a file or folder;</li>
 *   <li>every flag given to one of our programs — the component's jar, {@code irc-replay}, Joom,
 *       the scripts — is one that program accepts (the component's from {@link ConfigLoader#OPTIONS},
 *       the others' from their sources: the Java string literals of their module, a script's
 *       {@code case} arms and the scripts it hands over to), and a flag quoted on its own is one
 *       that some program of ours accepts;</li>
 *   <li>every setting named — a {@code key=} of the config file, a {@code RECONMUC_…} variable, an
 *       Openfire {@code reconmuc.…} property — exists: in {@link ConfigLoader#OPTIONS}, in a script
 *       or source that reads it, in the plugin's {@code PluginSettings}.</li>
 *   <li>every result in {@code benchmarks/results/} is in its index ({@code README.md}): a folder
 *       linked, a file named or covered by its day's pattern.</li>
 * </ul>
 *
 * Each check has a test that feeds it a bad document and sees it caught.
 */
class DocumentedClaimsTest {
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```[^\\n]*\\n(.*?)^\\s*```");
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern FLAG = Pattern.compile("^--([a-z0-9][a-z0-9-]*)(?:=.*)?$");
    private static final Pattern JAVA_FLAG = Pattern.compile("\"--([a-z0-9][a-z0-9-]*)");
    /** A switch's labels: in a parser that strips the "--", {@code case "kill-at" ->}, or {@code case "a", "b":}. */
    private static final Pattern CASE_LABELS = Pattern.compile("case\\s+((?:\"[a-z0-9-]+\"\\s*,\\s*)*\"[a-z0-9-]+\")\\s*(?:->|:)");
    private static final Pattern CASE_ARM = Pattern.compile("(?:^|[\\s|(])--([a-z0-9][a-z0-9-]*)(?:=\\*|\\*)?\\)");
    private static final Pattern TEST_ARM = Pattern.compile("==\\s*\"?--([a-z0-9][a-z0-9-]*)\\*?");
    private static final Pattern EXEC_SCRIPT = Pattern.compile("exec\\s+\"\\$ROOT/([^\"\\s]+\\.sh)\"");
    private static final Pattern VARIABLE = Pattern.compile("\\bRECONMUC_[A-Z0-9_]+\\b");
    /** A config file's key: {@code `secret=`}, or a hyphenated one with its value, {@code `history-size=200`}. */
    private static final Pattern KEY_SPAN = Pattern.compile("^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)=$|^([a-z][a-z0-9]*(?:-[a-z0-9]+)+)=[^'\"\\s]*$");
    private static final Pattern PROPERTY_SPAN = Pattern.compile("^reconmuc\\.([a-z0-9]+(?:-[a-z0-9]+)+)$");
    private static final Pattern QUOTED = Pattern.compile("\"([a-z0-9-]+)\"");

    private static Path root;
    private static Claims claims;

    @BeforeAll
    static void readTheRepository() throws IOException {
        root = DocumentedClassesTest.repositoryRoot();
        claims = new Claims(root);
    }

    // --- the documents as they are -------------------------------------------------------------

    @Test
    void everyRepositoryPathTheDocumentsNameExists() throws IOException {
        assertThat(problems(claims::missingPaths)).as("paths in code spans that do not exist (document -> paths)").isEmpty();
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        assertThat(problems(claims::brokenLinks)).as("relative links that resolve to nothing (document -> links)").isEmpty();
    }

    @Test
    void everyFlagIsOneTheProgramAccepts() throws IOException {
        assertThat(problems(claims::unknownFlags)).as("flags no program of ours accepts (document -> program: flag)").isEmpty();
    }

    @Test
    void everySettingNamedExists() throws IOException {
        assertThat(problems(claims::unknownSettings)).as("settings that do not exist (document -> settings)").isEmpty();
    }

    @Test
    void everyResultIsInTheIndex() throws IOException {
        Path results = root.resolve("benchmarks/results");
        assertThat(claims.unindexedResults(results, Files.readString(results.resolve("README.md"))))
                .as("results in benchmarks/results/ that its README.md does not index").isEmpty();
    }

    // --- each check catches a bad document -----------------------------------------------------

    @Test
    void aResultLeftOutOfTheIndexIsCaught() throws IOException {
        Path results = root.resolve("benchmarks/results");
        String index = Files.readString(results.resolve("README.md"));
        String withoutChurn = index.replace("](2026-11-26-churn/README.md)", "](2026-11-26-paper-final/README.md)");
        assertThat(withoutChurn).isNotEqualTo(index);
        assertThat(claims.unindexedResults(results, withoutChurn)).containsExactly("2026-11-26-churn/");
        String withoutFootprint = index.replace("2026-11-24-footprint.txt", "2026-11-24-occupant-footprint.txt");
        assertThat(claims.unindexedResults(results, withoutFootprint)).containsExactly("2026-11-24-footprint.txt");
        String withoutTheDay = index.replace("`2026-11-21-*`", "`2026-11-21-engine.txt`");
        assertThat(claims.unindexedResults(results, withoutTheDay)).contains("2026-11-21-engine-run2.txt")
                .doesNotContain("2026-11-21-engine.txt");
    }

    @Test
    void aPathThatDoesNotExistIsCaught() {
        Path readme = root.resolve("README.md");
        assertThat(claims.missingPaths(readme, "Run `scripts/run-local.sh --check`, see `benchmarks/results/`,"
                + " `deploy/`, `codec/…/batch`, `component/target/reconmuc-component.jar`, `../shared/openfire/`,"
                + " `benchmarks/…/StoreAppendBenchmark` and `benchmarks/results/2026-11-23-store-append.{txt,json}`,"
                + " the packages `component/…/muc/`, `component/src/.../relaxed/` and `codec/src/main/java/org/reconmuc/codec/batch/`."))
                .isEmpty();
        assertThat(claims.missingPaths(readme, "Run `scripts/run-nothing.sh`; results in"
                + " `benchmarks/results/2026-01-01-nothing/README.md`; templates in `deploy/nowhere/`,"
                + " `codec/…/no-such-package`, `benchmarks/results/2026-11-23-store-append.{txt,csv}`,"
                + " `component/src/.../muc/nothing/`, `codec/src/main/java/org/reconmuc/codec/nothing/`."))
                .containsExactly("scripts/run-nothing.sh", "benchmarks/results/2026-01-01-nothing/README.md",
                        "deploy/nowhere/", "codec/…/no-such-package", "benchmarks/results/2026-11-23-store-append.{txt,csv}",
                        "component/src/.../muc/nothing/", "codec/src/main/java/org/reconmuc/codec/nothing/");
    }

    @Test
    void aLinkToNothingIsCaught() {
        Path results = root.resolve("benchmarks/results/README.md");
        assertThat(claims.brokenLinks(results, "[the run](2026-11-26-paper-final/README.md), [capacity](2026-11-25-capacity/#top),"
                + " [the web](https://example.org/x), [above](#limits), ![Figure](2026-11-26-paper-final/figure-5-cpu-by-occupants.png)"))
                .isEmpty();
        assertThat(claims.brokenLinks(results, "[the run](2026-11-26-paper-nothing/README.md) and"
                + " ![a figure](2026-11-26-paper-final/figure-9.png)"))
                .containsExactly("2026-11-26-paper-nothing/README.md", "2026-11-26-paper-final/figure-9.png");
        assertThat(claims.brokenLinks(root.resolve("README.md"), "[design](DESIGN.md), [spec](xep-spec/reconmuc.md#4-12)"))
                .isEmpty();
        assertThat(claims.brokenLinks(root.resolve("README.md"), "[design](design.md)")).containsExactly("design.md");
    }

    @Test
    void aFlagTheProgramDoesNotAcceptIsCaught() {
        Path readme = root.resolve("README.md");
        String good = "`irc-replay rooms --kill-at 30`, `scripts/run-local.sh --check`, `--max-stanza-bytes`,"
                + " `scripts/run-local.sh --instances 3`, `scripts/joom.sh --scale 2`,"
                + " `java -jar component/target/reconmuc-component.jar --help`\n"
                + "```sh\njava -jar component/target/reconmuc-component.jar --server-host 127.0.0.1 --secret x\n"
                + "scripts/run-local.sh --server openfire   # --anything in a comment\n```\n";
        assertThat(claims.unknownFlags(readme, good)).isEmpty();
        String bad = "`irc-replay rooms --kill-after 30`, `scripts/run-local.sh --instances 3 --verbose`,"
                + " `--max-stanza-size`, `scripts/joom.sh --kill-at 3`\n"
                + "```sh\njava -jar component/target/reconmuc-component.jar --server-name x\n```\n";
        assertThat(claims.unknownFlags(readme, bad)).containsExactly(
                "irc-replay: --kill-after", "scripts/run-local.sh: --verbose", "any program of ours: --max-stanza-size",
                "scripts/joom.sh: --kill-at", "reconmuc-component.jar: --server-name");
    }

    @Test
    void aSettingThatDoesNotExistIsCaught() {
        Path readme = root.resolve("README.md");
        assertThat(claims.unknownSettings(readme, "`secret=` in the file, `history-size=200`, `RECONMUC_HISTORY_SIZE`,"
                + " RECONMUC_C2S_PORT, `RECONMUC_CONFIG`, `reconmuc.rate-burst`, `reconmuc.localhost`, `synchronous=NORMAL`,"
                + " `encoding='deflate-live'`")).isEmpty();
        assertThat(claims.unknownSettings(readme, "`secrets=` in the file, `history-length=200`, `RECONMUC_HISTORY_LENGTH`,"
                + " RECONMUC_C2S_PORTS, `reconmuc.rate-bursts`"))
                .containsExactly("secrets=", "history-length=200", "reconmuc.rate-bursts", "RECONMUC_HISTORY_LENGTH",
                        "RECONMUC_C2S_PORTS");
    }

    // --- the checks ----------------------------------------------------------------------------

    private interface Check {
        List<String> apply(Path doc, String markdown);
    }

    private static Map<String, List<String>> problems(Check check) throws IOException {
        Map<String, List<String>> problems = new TreeMap<>();
        for (Path doc : DocumentedClassesTest.documents(root)) {
            List<String> found = check.apply(doc, Files.readString(doc));
            if (!found.isEmpty()) {
                problems.put(root.relativize(doc).toString(), found);
            }
        }
        return problems;
    }

    /** What the repository says a document may name. */
    static final class Claims {
        private final Path root;
        private final Set<String> topLevel = new TreeSet<>();
        /** A program's name as the documents write it, and the flags it accepts. */
        private final Map<String, Set<String>> programs = new LinkedHashMap<>();
        private final Set<String> anyFlag = new TreeSet<>();
        private final Set<String> variables = new TreeSet<>();
        /** Top-level names .gitignore lists: what runs leave (run/, reconmuc-data/), never the repository's. */
        private final Set<String> ignored = new TreeSet<>();
        private final Set<String> keys = new TreeSet<>();
        private final Set<String> properties = new TreeSet<>();

        Claims(Path root) throws IOException {
            this.root = root;
            // What the repository holds at its top, not what a run left there (run/, reconmuc-data/: .gitignore).
            Path gitignore = root.resolve(".gitignore");
            if (Files.isRegularFile(gitignore)) {
                Files.readAllLines(gitignore).forEach(l -> ignored.add(l.strip().replaceAll("/$", "")));
            }
            try (Stream<Path> entries = Files.list(root)) {
                entries.map(e -> e.getFileName().toString()).filter(n -> !ignored.contains(n)).forEach(topLevel::add);
            }
            Set<String> component = new TreeSet<>(Set.of("config", "help", "h"));
            for (ConfigLoader.Option o : ConfigLoader.OPTIONS) {
                component.add(o.key());
                keys.add(o.key());
                variables.add(o.environmentVariable());
            }
            programs.put("reconmuc-component.jar", component);
            Set<String> replay = javaFlags(root.resolve("irc-replay/src/main/java"));
            programs.put("irc-replay.jar", replay);
            programs.put("irc-replay", replay);
            Set<String> joom = javaFlags(root.resolve("joom-client/src/main/java"));
            programs.put("joom.jar", joom);
            Set<String> joomScript = new TreeSet<>(joom);
            joomScript.addAll(scriptFlags(root.resolve("scripts/joom.sh")));
            programs.put("scripts/joom.sh", joomScript);
            try (Stream<Path> files = Files.walk(root)) {
                for (Path script : files.filter(p -> p.toString().endsWith(".sh")).filter(Claims::ours).toList()) {
                    programs.putIfAbsent(root.relativize(script).toString(), scriptFlags(script));
                }
            }
            programs.values().forEach(anyFlag::addAll);
            // Variables: the component's, and any that a script or source of ours reads or sets.
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(Files::isRegularFile).filter(Claims::ours)
                        .filter(p -> !p.getFileName().toString().equals("DocumentedClaimsTest.java"))
                        .filter(p -> p.toString().matches(".*\\.(sh|java|js|py|lua|template|yml)$")
                                || p.getFileName().toString().equals("Dockerfile"))
                        .toList()) {
                    Matcher v = VARIABLE.matcher(Files.readString(f));
                    while (v.find()) {
                        variables.add(v.group());
                    }
                }
            }
            keys.add("config");
            Path plugin = root.resolve("openfire-plugin/src/main/java/org/reconmuc/openfire/PluginSettings.java");
            String settings = Files.readString(plugin);
            int set = settings.indexOf("OPTIONS = Set.of(");
            Matcher q = QUOTED.matcher(settings.substring(set, settings.indexOf(';', set)));
            while (q.find()) {
                properties.add(q.group(1));
            }
            properties.add("subdomain");
        }

        private static boolean ours(Path p) {
            String s = p.toString();
            return !s.contains("/target/") && !s.contains("/.git/") && !s.contains("/node_modules/");
        }

        private static Set<String> javaFlags(Path sources) throws IOException {
            Set<String> flags = new TreeSet<>();
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String source = Files.readString(f);
                    Matcher m = JAVA_FLAG.matcher(source);
                    while (m.find()) {
                        flags.add(m.group(1));
                    }
                    if (source.contains("startsWith(\"--\")")) {
                        Matcher labels = CASE_LABELS.matcher(source);
                        while (labels.find()) {
                            Matcher q = QUOTED.matcher(labels.group(1));
                            while (q.find()) {
                                flags.add(q.group(1));
                            }
                        }
                    }
                }
            }
            return flags;
        }

        /** A script's flags: its {@code case} arms and {@code == --flag*} tests, and those of the scripts it hands over to. */
        private Set<String> scriptFlags(Path script) {
            Set<String> flags = new TreeSet<>();
            try {
                String text = Files.readString(script);
                for (String line : text.split("\n")) {
                    String code = line.strip();
                    if (code.startsWith("#")) {
                        continue;
                    }
                    for (Pattern p : List.of(CASE_ARM, TEST_ARM)) {
                        Matcher m = p.matcher(code);
                        while (m.find()) {
                            flags.add(m.group(1));
                        }
                    }
                }
                Matcher exec = EXEC_SCRIPT.matcher(text);
                while (exec.find()) {
                    Path next = root.resolve(exec.group(1));
                    if (Files.isRegularFile(next) && !next.equals(script)) {
                        flags.addAll(scriptFlags(next));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return flags;
        }

        // paths

        List<String> missingPaths(Path doc, String markdown) {
            List<String> missing = new ArrayList<>();
            for (String span : spans(markdown)) {
                for (String token : span.split("\\s+")) {
                    String path = token.replaceAll("[.,;:)]+$", "");
                    if (isRepositoryPath(doc, path) && !exists(doc, path)) {
                        missing.add(path);
                    }
                }
            }
            return missing;
        }

        private boolean isRepositoryPath(Path doc, String path) {
            if (!path.contains("/") || path.startsWith("../") || path.startsWith("/") || path.startsWith("~")
                    || path.matches(".*[$<>=?@:'\"*].*") || path.contains("/target/") || path.startsWith("target/")) {
                return false;
            }
            String first = path.substring(0, path.indexOf('/'));
            if (doc.getParent().equals(root) && ignored.contains(first)) {
                return false;   // made by a run (run/prosody/…), whether or not one ran here
            }
            if (!topLevel.contains(first) && !Files.exists(doc.getParent().resolve(first))) {
                return false;
            }
            // A class named by its folder (`benchmarks/…/StoreAppendBenchmark`, `codec/…/batch/DeflateStream.compress`)
            // is DocumentedClassesTest's to check.
            return DocumentedClassesTest.classNames("`" + path + "`").isEmpty();
        }

        private boolean exists(Path doc, String path) {
            for (String one : expandBraces(path)) {
                if (!existsOne(root, one) && !existsOne(doc.getParent(), one)) {
                    return false;
                }
            }
            return true;
        }

        private static boolean existsOne(Path base, String written) {
            String path = written.replace("...", "…");   // component/src/.../muc/ as component/…/muc/
            if (!path.contains("…")) {
                return Files.exists(base.resolve(path));
            }
            String glob = path.replaceAll("/$", "").replace("…", "**");
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
            String start = path.substring(0, path.indexOf("…"));
            Path from = base.resolve(start.isEmpty() ? "." : start);
            if (!Files.isDirectory(from)) {
                return false;
            }
            try (Stream<Path> files = Files.walk(from)) {
                return files.filter(Claims::ours).anyMatch(p -> matcher.matches(base.relativize(p)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static List<String> expandBraces(String path) {
            Matcher m = Pattern.compile("\\{([^{}]*)\\}").matcher(path);
            if (!m.find()) {
                return List.of(path);
            }
            List<String> out = new ArrayList<>();
            for (String alternative : m.group(1).split(",", -1)) {
                out.addAll(expandBraces(path.substring(0, m.start()) + alternative + path.substring(m.end())));
            }
            return out;
        }

        // the index of results

        /**
         * The results the index leaves out: a folder it does not link to, a file it neither names
         * (with or without its extension) nor covers by a day's pattern ({@code `2026-11-21-*`}).
         */
        List<String> unindexedResults(Path results, String index) throws IOException {
            Set<String> linked = new TreeSet<>();
            Matcher m = LINK.matcher(index);
            while (m.find()) {
                linked.add(m.group(1).replaceAll("[/#].*$", ""));
            }
            Set<String> days = new TreeSet<>();
            Matcher day = Pattern.compile("`(\\d{4}-\\d{2}-\\d{2})-\\*`").matcher(index);
            while (day.find()) {
                days.add(day.group(1));
            }
            List<String> missing = new ArrayList<>();
            try (Stream<Path> entries = Files.list(results)) {
                for (Path e : entries.sorted().toList()) {
                    String name = e.getFileName().toString();
                    if (name.equals("README.md")) {
                        continue;
                    }
                    if (Files.isDirectory(e)) {
                        if (!linked.contains(name)) {
                            missing.add(name + "/");
                        }
                        continue;
                    }
                    String stem = name.replaceAll("\\.[a-z]+$", "");
                    boolean named = Pattern.compile("(?<![\\w-])" + Pattern.quote(stem) + "(?![\\w-])").matcher(index).find();
                    boolean ofADay = name.length() >= 10 && days.contains(name.substring(0, 10));
                    if (!named && !ofADay) {
                        missing.add(name);
                    }
                }
            }
            return missing;
        }

        // links

        List<String> brokenLinks(Path doc, String markdown) {
            List<String> broken = new ArrayList<>();
            Matcher m = LINK.matcher(withoutFences(markdown));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.startsWith("#")) {
                    continue;
                }
                String file = URLDecoder.decode(target.replaceAll("#.*$", ""), StandardCharsets.UTF_8);
                if (!Files.exists(doc.getParent().resolve(file))) {
                    broken.add(target);
                }
            }
            return broken;
        }

        // flags

        List<String> unknownFlags(Path doc, String markdown) {
            List<String> unknown = new ArrayList<>();
            for (String span : spans(markdown)) {
                unknown.addAll(unknownFlagsIn(span, true));
            }
            Matcher fence = FENCE.matcher(markdown);
            while (fence.find()) {
                for (String line : fence.group(1).split("\n")) {
                    unknown.addAll(unknownFlagsIn(line, false));
                }
            }
            return unknown;
        }

        /** The flags of one command line or code span; with {@code bare}, flags quoted without a program too. */
        private List<String> unknownFlagsIn(String command, boolean bare) {
            List<String> unknown = new ArrayList<>();
            String program = null;
            Set<String> accepted = null;
            String[] tokens = command.strip().split("\\s+");
            for (int i = 0; i < tokens.length; i++) {
                String t = tokens[i];
                if (t.startsWith("#") || t.equals("|") || t.equals(";") || t.equals("&&") || t.equals("&")) {
                    program = null;
                    accepted = null;
                    if (t.startsWith("#")) {
                        break;
                    }
                    continue;
                }
                String named = programNamed(t, i == 0);
                if (named != null) {
                    program = named;
                    accepted = programs.get(named);
                    continue;
                }
                Matcher flag = FLAG.matcher(t);
                if (!flag.matches()) {
                    continue;
                }
                if (accepted != null) {
                    if (!accepted.contains(flag.group(1))) {
                        unknown.add(program + ": --" + flag.group(1));
                    }
                } else if (bare && i == 0 && !anyFlag.contains(flag.group(1))) {
                    unknown.add("any program of ours: --" + flag.group(1));
                }
            }
            return unknown;
        }

        /** The program a command's word names, if it is one of ours. */
        private String programNamed(String word, boolean first) {
            String w = word.replaceAll("^\\./", "");
            for (String name : programs.keySet()) {
                if (name.equals("irc-replay")) {
                    if (first && w.equals(name)) {
                        return name;
                    }
                } else if (w.equals(name) || w.endsWith("/" + name) || name.endsWith("/" + w)) {
                    return name;
                }
            }
            return null;
        }

        // settings

        List<String> unknownSettings(Path doc, String markdown) {
            List<String> unknown = new ArrayList<>();
            for (String span : spans(markdown)) {
                Matcher key = KEY_SPAN.matcher(span.strip());
                if (key.matches() && !keys.contains(key.group(1) != null ? key.group(1) : key.group(2))) {
                    unknown.add(span.strip());
                }
                Matcher property = PROPERTY_SPAN.matcher(span.strip());
                if (property.matches() && !properties.contains(property.group(1))) {
                    unknown.add(span.strip());
                }
            }
            Matcher v = VARIABLE.matcher(markdown);
            while (v.find()) {
                if (!variables.contains(v.group())) {
                    unknown.add(v.group());
                }
            }
            return unknown;
        }

        private static List<String> spans(String markdown) {
            List<String> spans = new ArrayList<>();
            Matcher m = CODE_SPAN.matcher(withoutFences(markdown));
            while (m.find()) {
                spans.add(m.group(1));
            }
            return spans;
        }

        private static String withoutFences(String markdown) {
            return FENCE.matcher(markdown).replaceAll("\n");
        }
    }
}
