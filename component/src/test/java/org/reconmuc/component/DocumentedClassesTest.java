package org.reconmuc.component;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The documents name only classes, members and packages that exist. In every code span of the
 * README of the repository and of each module, of DESIGN.md and of the index of results:
 *
 * <ul>
 *   <li>a class name ({@code `RoomOutput`}, {@code `relaxed.Fanout`}, {@code `codec/…/batch/DeflateStream`},
 *       {@code `MessageLog.Entry`}) must be a {@code .java} file somewhere in the repository, or one of
 *       the few other projects' classes the documents speak of ({@link #NOT_OURS});</li>
 *   <li>what follows it ({@code `MessageLog.Entry.held`}, {@code `Reader.cursor()`},
 *       {@code `StoreWriter.POSITIONS_DELAY_NANOS`}) must be a nested type, method, field, enum
 *       constant or record component declared in that class or in a class of ours it extends or
 *       implements (read from the source with the JDK's own parser);</li>
 *   <li>a package before it ({@code `muc.LeasedRooms`}, {@code `org.reconmuc.servers.XmppServers`},
 *       {@code `codec/…/batch/DeflateStream`}) must be where the class is, and a package named on its
 *       own ({@code `org.reconmuc.smack`}) must exist;</li>
 *   <li>every package of the component is on its map, {@code component/README.md}.</li>
 * </ul>
 *
 * Dated result folders are history and are not checked. {@link DocumentedClaimsTest} checks the
 * documents' paths, links, flags and settings.
 */
class DocumentedClassesTest {
    /** Classes of the JDK, Smack, Tinder, the browser and others that the documents name on purpose. */
    private static final Set<String> NOT_OURS = Set.of(
            "Arrays", "Deflater", "HashMap", "IdentityHashMap", "Long", "String", "Set12", "SocketFactory",
            "Component", "Packet", "MamManager", "MultiUserChat", "StanzaCollector", "XMPPTCPConnection",
            "XmlStringBuilder", "LazyStringBuilder", "Java7ZlibInputOutputStream", "Dockerfile", "WebSocket");

    /**
     * A code span that is a class name: packages or folders before it (group 1; with a {@code …/}
     * for any folders, group 2 after it), the name (3), members after it (4), possibly a call's
     * {@code ()}.
     */
    private static final Pattern CLASS_SPAN = Pattern.compile(
            "^((?:[a-z][a-z0-9_]*[./])*)(?:…/((?:[a-z0-9_]+/)*))?([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)((?:[.#][A-Za-z0-9_]+)*)(?:\\(\\))?$");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    /** A package of ours named on its own. */
    private static final Pattern PACKAGE_SPAN = Pattern.compile("^org\\.reconmuc(?:\\.[a-z][a-z0-9_]*)+$");
    /** What follows a file's name, not a member's ({@code `ServerPlacement.java`}). */
    private static final Set<String> FILE_EXTENSIONS = Set.of("java", "md", "txt", "json", "xml", "xsd", "sh", "lua", "yml", "js", "jar", "png");

    private static Path root;
    private static Sources sources;

    @BeforeAll
    static void readTheRepository() throws IOException {
        root = repositoryRoot();
        sources = new Sources(root);
    }

    // --- the documents as they are -------------------------------------------------------------

    @Test
    void everyClassTheDocumentsNameExists() throws IOException {
        assertThat(problems(sources::missingClasses)).as("classes named in the documents that do not exist (document -> names)").isEmpty();
    }

    @Test
    void everyMemberTheDocumentsNameExists() throws IOException {
        assertThat(problems(sources::missingMembers))
                .as("members named in the documents that their class does not declare (document -> Class.member)").isEmpty();
    }

    @Test
    void everyPackageTheDocumentsNameExists() throws IOException {
        assertThat(problems(sources::missingPackages))
                .as("packages named in the documents that do not exist or do not hold the class named in them (document -> names)")
                .isEmpty();
    }

    @Test
    void everyPackageOfTheComponentIsOnItsMap() throws IOException {
        assertThat(sources.packagesOffTheMap(Files.readString(root.resolve("component/README.md"))))
                .as("packages of org.reconmuc.component that component/README.md does not name as `package` or `a.b`").isEmpty();
    }

    // --- each check sees names and catches a bad one -------------------------------------------

    @Test
    void aPackageLeftOffTheMapIsCaught() throws IOException {
        String map = Files.readString(root.resolve("component/README.md"));
        String withoutJid = map.replace("`jid`", "jid");
        assertThat(withoutJid).isNotEqualTo(map);
        assertThat(sources.packagesOffTheMap(withoutJid)).containsExactly("jid");
    }

    @Test
    void theCheckSeesClassNamesInTheirUsualShapes() {
        assertThat(classNames("`RoomOutput`, `relaxed.Fanout`, `codec/…/batch/DeflateStream`, `MessageLog.Entry`,"
                + " `History.log`, `Batch.compact()`, `--history-size`, `mvn -B verify`, `urn:reconmuc:0`, `off`"))
                .containsExactly("RoomOutput", "Fanout", "DeflateStream", "MessageLog", "History", "Batch");
    }

    @Test
    void aClassThatDoesNotExistIsCaught() {
        assertThat(sources.missingClasses("`RoomOutput`, `relaxed.Fanout`, `Deflater`")).isEmpty();
        assertThat(sources.missingClasses("`RoomOutputs`, `relaxed.Fanin`")).containsExactly("RoomOutputs", "Fanin");
    }

    @Test
    void aMemberThatDoesNotExistIsCaught() {
        assertThat(sources.missingMembers("`MessageLog.Entry.held`, `Reader.cursor()`, `StoreWriter.POSITIONS_DELAY_NANOS`,"
                + " `RoomOption.Flag`, `muc.LeasedRooms.takeOver`, `codec/…/batch/DeflateStream.compress`, `Fanout#holders`,"
                + " `ServerPlacement.java`, `Deflater.setDictionary`, `NoSuchClass.anything`")).isEmpty();
        assertThat(sources.missingMembers("`MessageLog.Entry.helds`, `Reader.cursors()`, `StoreWriter.POSITIONS_DELAY`,"
                + " `RoomOption.Flags`, `MessageLog.Entries.held`, `muc.LeasedRooms.takeover`"))
                .containsExactly("MessageLog.Entry.helds", "Reader.cursors", "StoreWriter.POSITIONS_DELAY",
                        "RoomOption.Flags", "MessageLog.Entries.held", "LeasedRooms.takeover");
    }

    @Test
    void aMemberInheritedFromAClassOfOursCounts() {
        // LanguageOption is a RoomOption.Text, a RoomOption, which declares what every option answers (refuses, …).
        assertThat(sources.missingMembers("`LanguageOption.refuses`, `LanguageOption.KEY_THAT_NOBODY_DECLARES`"))
                .containsExactly("LanguageOption.KEY_THAT_NOBODY_DECLARES");
    }

    @Test
    void aPackageThatDoesNotExistOrDoesNotHoldTheClassIsCaught() {
        assertThat(sources.missingPackages("`cluster.LeasedRooms`, `store.RoomJournal.position`, `codec/…/batch/DeflateStream`,"
                + " `org.reconmuc.servers.XmppServers`, `org.reconmuc.smack`, `org.reconmuc.joom`, `transport/XmlLimits`,"
                + " `component/src/main/java/org/reconmuc/component/config/ConfigLoader.java`, `RoomOutput`")).isEmpty();
        assertThat(sources.missingPackages("`muc.LeasedRooms`, `store.RoomJournal.position`, `codec/…/batch/RoomOutput`,"
                + " `org.reconmuc.component.nothing`, `org.reconmuc.nothing.XmppServers`, `muc/XmlLimits`"))
                .containsExactly("muc.LeasedRooms", "codec/…/batch/RoomOutput", "org.reconmuc.component.nothing",
                        "org.reconmuc.nothing.XmppServers", "muc/XmlLimits");
    }

    // --- the checks ----------------------------------------------------------------------------

    private interface Check {
        List<String> apply(String markdown);
    }

    private static Map<String, Set<String>> problems(Check check) throws IOException {
        Map<String, Set<String>> problems = new TreeMap<>();
        for (Path doc : documents(root)) {
            List<String> found = check.apply(Files.readString(doc));
            if (!found.isEmpty()) {
                problems.put(root.relativize(doc).toString(), new TreeSet<>(found));
            }
        }
        return problems;
    }

    static List<String> classNames(String markdown) {
        List<String> names = new ArrayList<>();
        for (Matcher name : classSpans(markdown)) {
            names.add(name.group(3));
        }
        return names;
    }

    private static List<Matcher> classSpans(String markdown) {
        List<Matcher> found = new ArrayList<>();
        Matcher spans = CODE_SPAN.matcher(markdown);
        while (spans.find()) {
            Matcher name = CLASS_SPAN.matcher(spans.group(1).trim());
            if (name.matches()) {
                found.add(name);
            }
        }
        return found;
    }

    /** The repository's Java sources: where each class is, and (parsed when first asked) what it declares. */
    static final class Sources {
        private final Path root;
        /** A class's simple name and the files of that name (a name may be in several modules). */
        private final Map<String, List<Path>> files = new HashMap<>();
        /** Every package of ours that holds a class, as a path: {@code org/reconmuc/component/muc}. */
        private final Set<String> packages = new TreeSet<>();
        /** The component's own packages (its main code), which its README maps. */
        private final Set<String> mainPackages = new TreeSet<>();
        private final Map<Path, List<ClassTree>> parsed = new HashMap<>();
        private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();

        Sources(Path root) throws IOException {
            this.root = root;
            try (Stream<Path> all = Files.walk(root)) {
                for (Path p : all.filter(f -> f.getFileName().toString().endsWith(".java"))
                        .filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.git/")
                                && !f.toString().contains("/node_modules/"))
                        .toList()) {
                    files.computeIfAbsent(p.getFileName().toString().replace(".java", ""), n -> new ArrayList<>()).add(p);
                    Matcher pkg = Pattern.compile("/src/[a-z]+/java/(.+)/[^/]+\\.java$").matcher(p.toString());
                    if (pkg.find()) {
                        packages.add(pkg.group(1));
                        if (p.startsWith(root.resolve("component/src/main/java"))) {
                            mainPackages.add(pkg.group(1));
                        }
                    }
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }

        List<String> missingClasses(String markdown) {
            List<String> missing = new ArrayList<>();
            for (String name : classNames(markdown)) {
                if (!files.containsKey(name) && !NOT_OURS.contains(name)) {
                    missing.add(name);
                }
            }
            return missing;
        }

        /** The component's packages ({@code muc}, {@code muc.options}) that {@code map} names in no code span. */
        List<String> packagesOffTheMap(String map) {
            Set<String> named = new TreeSet<>();
            Matcher spans = CODE_SPAN.matcher(map);
            while (spans.find()) {
                named.add(spans.group(1).trim());
            }
            String base = "org/reconmuc/component/";
            List<String> off = new ArrayList<>();
            for (String pkg : packages) {
                if (pkg.startsWith(base) && mainPackages.contains(pkg)) {
                    String name = pkg.substring(base.length()).replace('/', '.');
                    if (!named.contains(name) && !named.contains("org.reconmuc.component." + name)) {
                        off.add(name);
                    }
                }
            }
            return off;
        }

        /** {@code Class.member} names whose class (ours) declares no such nested type or member. */
        List<String> missingMembers(String markdown) {
            List<String> missing = new ArrayList<>();
            parse(classSpans(markdown).stream().filter(span -> !span.group(4).isEmpty())
                    .flatMap(span -> files.getOrDefault(span.group(3), List.of()).stream()).toList());
            for (Matcher span : classSpans(markdown)) {
                String name = span.group(3);
                String members = span.group(4);
                List<String> chain = members.isEmpty() ? List.of() : List.of(members.substring(1).split("[.#]"));
                if (chain.isEmpty() || FILE_EXTENSIONS.contains(chain.get(0)) || !files.containsKey(name)) {
                    continue;
                }
                boolean declared = false;
                for (Path file : files.get(name)) {
                    for (ClassTree type : types(file)) {
                        if (type.getSimpleName().contentEquals(name) && declares(type, file, chain, 0, 0)) {
                            declared = true;
                        }
                    }
                }
                if (!declared) {
                    missing.add(name + "." + String.join(".", chain));
                }
            }
            return missing;
        }

        /**
         * Packages that do not exist: a class's qualifier ({@code muc.} before {@code LeasedRooms},
         * {@code codec/…/batch/} before {@code DeflateStream}) that is not the end of the folder of
         * a file of that class, and an {@code org.reconmuc…} package named on its own.
         */
        List<String> missingPackages(String markdown) {
            List<String> missing = new ArrayList<>();
            Matcher spans = CODE_SPAN.matcher(markdown);
            while (spans.find()) {
                String span = spans.group(1).trim();
                if (PACKAGE_SPAN.matcher(span).matches()) {
                    String path = span.replace('.', '/');
                    if (packages.stream().noneMatch(p -> p.equals(path) || p.startsWith(path + "/"))) {   // or one above packages
                        missing.add(span);
                    }
                    continue;
                }
                Matcher name = CLASS_SPAN.matcher(span);
                if (!name.matches() || (name.group(1).isEmpty() && name.group(2) == null) || !files.containsKey(name.group(3))) {
                    continue;
                }
                boolean anywhere = name.group(2) != null;
                String before = name.group(1).replace('.', '/');
                String after = anywhere ? name.group(2) : "";
                boolean found = false;
                for (Path file : files.get(name.group(3))) {
                    String folder = "/" + root.relativize(file.getParent()) + "/";
                    boolean matches = anywhere
                            ? folder.contains("/" + before) && folder.endsWith("/" + after)
                            : folder.endsWith("/" + before);
                    found |= matches;
                }
                if (!found) {
                    missing.add(name.group(1) + (anywhere ? "…/" + after : "") + name.group(3));
                }
            }
            return missing;
        }

        /**
         * Whether {@code type} (in {@code file}) declares {@code chain[at]} — a nested type when more
         * follows —, itself or through a supertype of ours.
         */
        private boolean declares(ClassTree type, Path file, List<String> chain, int at, int depth) {
            String wanted = chain.get(at);
            boolean last = at == chain.size() - 1;
            for (Tree member : type.getMembers()) {
                if (member instanceof ClassTree nested && nested.getSimpleName().contentEquals(wanted)) {
                    if (last || declares(nested, file, chain, at + 1, depth)) {
                        return true;
                    }
                } else if (last && member instanceof MethodTree method && method.getName().contentEquals(wanted)) {
                    return true;
                } else if (last && member instanceof VariableTree variable && variable.getName().contentEquals(wanted)) {
                    return true;   // a field, an enum constant or a record component
                }
            }
            if (depth > 8) {
                return false;
            }
            List<Tree> supertypes = new ArrayList<>(type.getImplementsClause());
            if (type.getExtendsClause() != null) {
                supertypes.add(type.getExtendsClause());
            }
            for (Tree supertype : supertypes) {
                // RoomOption.Text: a type named Text in RoomOption's file; Text: one in this file, or a file of its own.
                List<String> parts = List.of(typeName(supertype).split("\\."));
                String simple = parts.get(parts.size() - 1);
                List<Path> candidates = new ArrayList<>(files.getOrDefault(parts.get(0), List.of()));
                candidates.add(file);
                for (Path candidateFile : candidates) {
                    for (ClassTree candidate : types(candidateFile)) {
                        if (candidate != type && candidate.getSimpleName().contentEquals(simple)
                                && declares(candidate, candidateFile, chain, at, depth + 1)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /** A supertype's name as written, without type arguments: {@code RoomOption.Text}, {@code FanoutHost}. */
        private static String typeName(Tree type) {
            if (type instanceof ParameterizedTypeTree parameterized) {
                return typeName(parameterized.getType());
            }
            if (type instanceof MemberSelectTree select) {
                return typeName(select.getExpression()) + "." + select.getIdentifier();
            }
            return type instanceof IdentifierTree identifier ? identifier.getName().toString() : type.toString();
        }

        /** Every type declared in a file, nested ones too (a supertype may be one: {@code RoomOption.Text}). */
        private List<ClassTree> types(Path file) {
            if (!parsed.containsKey(file)) {
                parse(List.of(file));
            }
            return parsed.get(file);
        }

        /** Parses the files not parsed yet, in one go (a parser per file would cost seconds). */
        private void parse(Collection<Path> files) {
            List<Path> toParse = files.stream().filter(f -> !parsed.containsKey(f)).distinct().toList();
            if (toParse.isEmpty()) {
                return;
            }
            try (StandardJavaFileManager manager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
                JavacTask task = (JavacTask) javac.getTask(null, manager, diagnostic -> { }, List.of("-proc:none"), null,
                        manager.getJavaFileObjects(toParse.toArray(Path[]::new)));
                for (CompilationUnitTree unit : task.parse()) {
                    List<ClassTree> types = new ArrayList<>();
                    for (Tree declared : unit.getTypeDecls()) {
                        if (declared instanceof ClassTree type) {
                            collect(type, types);
                        }
                    }
                    parsed.put(Path.of(unit.getSourceFile().toUri()), types);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static void collect(ClassTree type, List<ClassTree> into) {
            into.add(type);
            for (Tree member : type.getMembers()) {
                if (member instanceof ClassTree nested) {
                    collect(nested, into);
                }
            }
        }
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("DESIGN.md")) && Files.isDirectory(p.resolve("component"))) {
                return p;
            }
        }
        throw new IllegalStateException("the repository root (with DESIGN.md) is not above " + Path.of("").toAbsolutePath());
    }

    /** The repository's README and DESIGN.md, each module's README, and the index of results (not the dated folders). */
    static List<Path> documents(Path root) throws IOException {
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("DESIGN.md")));
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(docs::add);
        }
        Path results = root.resolve("benchmarks/results/README.md");
        if (Files.isRegularFile(results)) {
            docs.add(results);
        }
        return docs;
    }
}
