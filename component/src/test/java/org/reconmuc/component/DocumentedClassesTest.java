package org.reconmuc.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents name only classes that exist: every code-formatted class name in the README of
 * the repository and of each module, and in DESIGN.md ({@code `RoomOutput`},
 * {@code `relaxed.Fanout`}, {@code `codec/…/batch/DeflateStream`}, {@code `MessageLog.Entry`}),
 * must be a {@code .java} file somewhere in the repository, or one of the few other projects'
 * classes the documents speak of ({@link #NOT_OURS}). Dated result folders are history and are
 * not checked. {@link DocumentedClaimsTest} checks the documents' paths, links, flags and settings.
 */
class DocumentedClassesTest {
    /** Classes of the JDK, Smack, Tinder, the browser and others that the documents name on purpose. */
    private static final Set<String> NOT_OURS = Set.of(
            "Arrays", "Deflater", "HashMap", "IdentityHashMap", "Long", "String", "Set12", "SocketFactory",
            "Component", "Packet", "MamManager", "MultiUserChat", "StanzaCollector", "XMPPTCPConnection",
            "XmlStringBuilder", "LazyStringBuilder", "Java7ZlibInputOutputStream", "Dockerfile", "WebSocket");

    /** A code span that is a class name, possibly qualified by packages or a path, possibly with a member after it. */
    private static final Pattern CLASS_SPAN = Pattern.compile(
            "^(?:[a-z][a-z0-9_]*[./])*(?:…/)?(?:[a-z0-9_]+/)*([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:[.#][A-Za-z0-9_]+)*(?:\\(\\))?$");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");

    @Test
    void everyClassTheDocumentsNameExists() throws IOException {
        Path root = repositoryRoot();
        Set<String> classes = javaClasses(root);
        TreeMap<String, Set<String>> missing = new TreeMap<>();
        for (Path doc : documents(root)) {
            for (String name : classNames(Files.readString(doc))) {
                if (!classes.contains(name) && !NOT_OURS.contains(name)) {
                    missing.computeIfAbsent(root.relativize(doc).toString(), d -> new TreeSet<>()).add(name);
                }
            }
        }
        assertThat(missing).as("classes named in the documents that do not exist (document -> names)").isEmpty();
    }

    @Test
    void theCheckSeesClassNamesInTheirUsualShapes() {
        assertThat(classNames("`RoomOutput`, `relaxed.Fanout`, `codec/…/batch/DeflateStream`, `MessageLog.Entry`,"
                + " `History.log`, `Batch.compact()`, `--history-size`, `mvn -B verify`, `urn:reconmuc:0`, `off`"))
                .containsExactly("RoomOutput", "Fanout", "DeflateStream", "MessageLog", "History", "Batch");
    }

    static List<String> classNames(String markdown) {
        List<String> names = new ArrayList<>();
        Matcher spans = CODE_SPAN.matcher(markdown);
        while (spans.find()) {
            Matcher name = CLASS_SPAN.matcher(spans.group(1).trim());
            if (name.matches()) {
                names.add(name.group(1));
            }
        }
        return names;
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

    private static Set<String> javaClasses(Path root) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(p -> p.getFileName().toString().endsWith(".java"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .forEach(p -> names.add(p.getFileName().toString().replace(".java", "")));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return names;
    }
}
