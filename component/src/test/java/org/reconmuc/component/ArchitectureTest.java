package org.reconmuc.component;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The component's packages depend one way (DESIGN.md, "A room's features"): no cycle between any
 * two of them, each package its own slice (the root package, where {@code RoomFeatures} lists the
 * features, too), read from the compiled product classes; and the MUC's core, package {@code muc},
 * uses none of its features, which live in packages of their own ({@code muc.*}, {@code activity})
 * and are handed to the service by {@code RoomFeatures}.
 */
class ArchitectureTest {
    private static final String COMPONENT = "org.reconmuc.component";
    private static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(COMPONENT);

    /** Each package of {@code base} is a slice, named by its path below it ("" for the base itself). */
    private static ArchRule noCycleBetweenThePackagesOf(String base) {
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = javaClass.getPackageName();
                if (pkg.equals(base)) {
                    return SliceIdentifier.of("(root)");
                }
                return pkg.startsWith(base + ".") ? SliceIdentifier.of(pkg.substring(base.length() + 1)) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "each package of " + base;
            }
        }).should().beFreeOfCycles();
    }

    @Test
    void noPackageOfTheComponentDependsOnItselfThroughOthers() {
        noCycleBetweenThePackagesOf(COMPONENT).check(PRODUCT);
    }

    @Test
    void theCoreOfTheMucUsesNoneOfItsFeatures() {
        noClasses().that().resideInAPackage(COMPONENT + ".muc")
                .should().dependOnClassesThat().resideInAnyPackage(COMPONENT + ".muc.*..", COMPONENT + ".activity..", COMPONENT)
                .check(PRODUCT);
    }

    @Test
    void aCycleBetweenTwoPackagesIsCaught() {
        JavaClasses henAndEgg = new ClassFileImporter().importPackages(COMPONENT + ".testing.cycle");
        assertThatThrownBy(() -> noCycleBetweenThePackagesOf(COMPONENT + ".testing.cycle").check(henAndEgg))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("Slice a")
                .hasMessageContaining("Slice b");
    }
}
