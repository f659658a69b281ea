#include "frontend/Frontend.h"

#include "frontend/Lowering.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Frontend/Utils.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <llvm/Support/thread.h>

#include <algorithm>
#include <set>

namespace tilecc {

using namespace clang;

namespace {

bool isKernel(const FunctionDecl* fd) {
  for (const auto* a : fd->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "tilecc.kernel") return true;
  return false;
}

/// Kernels in a file: its non-template kernels and every explicit instantiation definition it
/// makes of a template kernel (the template may come from a header), in source order.
struct KernelFinder : RecursiveASTVisitor<KernelFinder> {
  SourceManager& sm;
  std::vector<const FunctionDecl*> found;
  std::vector<const FunctionTemplateDecl*> uninstantiated;
  std::vector<const FunctionDecl*> undefined;  // kernels declared here and defined nowhere

  explicit KernelFinder(SourceManager& s) : sm(s) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitFunctionDecl(FunctionDecl* fd) {
    if (fd->getDescribedFunctionTemplate() || fd->isTemplateInstantiation()) return true;
    if (!fd->isThisDeclarationADefinition()) {
      if (isKernel(fd) && !fd->getDefinition() && fd->isFirstDecl() && sm.isInMainFile(fd->getLocation()))
        undefined.push_back(fd);
      return true;
    }
    if (isKernel(fd) && sm.isInMainFile(fd->getLocation())) found.push_back(fd);
    return true;
  }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl* td) {
    FunctionDecl* pattern = td->getTemplatedDecl();
    if (!isKernel(pattern) || !pattern->isThisDeclarationADefinition()) return true;
    bool any = false;
    for (FunctionDecl* spec : td->specializations()) {
      if (spec->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition &&
          sm.isInMainFile(sm.getExpansionLoc(spec->getPointOfInstantiation()))) {
        found.push_back(spec);
        any = true;
      }
    }
    // A template of this file nobody instantiates here (one from a header may be elsewhere).
    if (!any && sm.isInMainFile(td->getLocation())) uninstantiated.push_back(td);
    return true;
  }
};

SourceLocation orderKey(const FunctionDecl* fd) {
  if (fd->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition) return fd->getPointOfInstantiation();
  return fd->getLocation();
}

class Consumer : public ASTConsumer {
 public:
  Consumer(CompilerInstance& ci, TranslationUnit& tu) : ci_(ci), tu_(tu) {}

  void HandleTranslationUnit(ASTContext& ctx) override {
    DiagnosticsEngine& diags = ctx.getDiagnostics();
    if (diags.hasErrorOccurred()) return;
    KernelFinder finder(ctx.getSourceManager());
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    for (const FunctionTemplateDecl* td : finder.uninstantiated)
      diags.Report(td->getLocation(), diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                                            "template kernel '%0' has no explicit instantiation "
                                                            "definition in this file, so no kernel is generated "
                                                            "(add: template void %0<...>(...);)"))
          << td->getName();
    for (const FunctionDecl* fd : finder.undefined)
      diags.Report(fd->getLocation(), diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                                            "kernel '%0' is declared but not defined in this file, so no "
                                                            "kernel is generated for it"))
          << fd->getName();
    auto& sm = ctx.getSourceManager();
    if (finder.found.empty()) {  // an empty .cu would build and launch nothing: say so instead
      diags.Report(sm.getLocForStartOfFile(sm.getMainFileID()),
                   diags.getCustomDiagID(DiagnosticsEngine::Error,
                                         "no kernel in this file: mark kernel functions TILECC_KERNEL(...) and give "
                                         "template kernels an explicit instantiation (template void k<...>(...);)"));
      return;
    }
    std::stable_sort(finder.found.begin(), finder.found.end(), [&](const FunctionDecl* a, const FunctionDecl* b) {
      return sm.isBeforeInTranslationUnit(orderKey(a), orderKey(b));
    });
    std::set<std::string> names;
    for (const FunctionDecl* fd : finder.found) {
      auto k = lowerKernel(ctx, fd);
      if (!k) continue;
      if (!names.insert(k->name).second) {
        diags.Report(orderKey(fd), diags.getCustomDiagID(DiagnosticsEngine::Error,
                                                         "two kernels would both be named '%0'"))
            << k->name;
        continue;
      }
      tu_.kernels.push_back(std::move(k));
    }
  }

 private:
  CompilerInstance& ci_;
  TranslationUnit& tu_;
};

class Action : public ASTFrontendAction {
 public:
  Action(std::vector<TranslationUnit>& out, bool deps) : out_(out), deps_(deps) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef file) override {
    out_.emplace_back();
    out_.back().input = file.str();
    if (deps_) {
      collector_ = std::make_shared<DependencyCollector>();
      collector_->attachToPreprocessor(ci.getPreprocessor());
    }
    return std::make_unique<Consumer>(ci, out_.back());
  }

  void EndSourceFileAction() override {
    if (deps_ && collector_ && !out_.empty()) out_.back().dependencies = collector_->getDependencies();
  }

 private:
  std::vector<TranslationUnit>& out_;
  bool deps_;
  std::shared_ptr<DependencyCollector> collector_;
};

/// Clang's diagnostic printer, minus repeats: a template kernel's instantiations would report
/// one mistake in the template once each. A repeated diagnostic goes with its notes.
class DedupingPrinter : public DiagnosticConsumer {
 public:
  void BeginSourceFile(const LangOptions& lo, const Preprocessor* pp) override {
    if (pp) printer_ = std::make_unique<TextDiagnosticPrinter>(llvm::errs(), &pp->getDiagnostics().getDiagnosticOptions());
    printer().BeginSourceFile(lo, pp);
  }
  void EndSourceFile() override { printer().EndSourceFile(); }
  void finish() override { printer().finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    if (level != DiagnosticsEngine::Note) {
      llvm::SmallString<256> key;
      key += std::to_string(static_cast<int>(level)) + ":";
      if (info.hasSourceManager() && info.getLocation().isValid()) {
        const PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getSourceManager().getExpansionLoc(info.getLocation()));
        if (p.isValid()) key += std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) + ":";
      }
      info.FormatDiagnostic(key);
      dropping_ = !seen_.insert(std::string(key)).second;
    }
    if (dropping_) return;
    DiagnosticConsumer::HandleDiagnostic(level, info);  // counts what is shown ("1 error generated")
    printer().HandleDiagnostic(level, info);
  }

 private:
  TextDiagnosticPrinter& printer() {
    if (!printer_) printer_ = std::make_unique<TextDiagnosticPrinter>(llvm::errs(), defaults_.get());
    return *printer_;
  }
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> defaults_{new DiagnosticOptions()};  // the printer holds a reference
  std::unique_ptr<TextDiagnosticPrinter> printer_;
  std::set<std::string> seen_;
  bool dropping_ = false;
};

class Factory : public tooling::FrontendActionFactory {
 public:
  Factory(std::vector<TranslationUnit>& out, bool deps) : out_(out), deps_(deps) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(out_, deps_); }

 private:
  std::vector<TranslationUnit>& out_;
  bool deps_;
};

// One input, parsed and lowered (on the caller's deep-stack thread).
bool runOne(tooling::CompilationDatabase& db, const std::string& input, Factory& factory, DiagnosticConsumer& diagnostics,
          const std::vector<std::string>& front, const std::vector<std::string>& back) {
  tooling::ClangTool tool(db, {input});
  tool.setPrintErrorMessage(false);
  tool.setDiagnosticConsumer(&diagnostics);
  tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  tool.appendArgumentsAdjuster(tooling::getClangStripDependencyFileAdjuster());
  tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(front, tooling::ArgumentInsertPosition::BEGIN));
  tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(back, tooling::ArgumentInsertPosition::END));
  return tool.run(&factory) == 0;
}

}  // namespace

bool runFrontend(const FrontendOptions& opts, std::vector<TranslationUnit>& out) {
  std::unique_ptr<tooling::CompilationDatabase> db;
  if (!opts.compileDbDir.empty()) {
    std::string err;
    db = tooling::CompilationDatabase::loadFromDirectory(opts.compileDbDir, err);
    if (!db) {
      llvm::errs() << "tilecc: error: " << err << "\n";
      return false;
    }
    // Kernel files are rarely compiled themselves: one missing from the database takes the
    // flags of the entry nearest to it (its host test, a file in the same directory).
    db = tooling::inferMissingCompileCommands(std::move(db));
    for (const std::string& input : opts.inputs) {
      if (!db->getCompileCommands(input).empty()) continue;
      llvm::errs() << "tilecc: error: " << input << ": no compile command for it (or any file) in " << opts.compileDbDir
                   << "/compile_commands.json\n";
      return false;
    }
  } else {
    db = std::make_unique<tooling::FixedCompilationDatabase>(".", opts.extraArgs);
  }
  // Kernels are parsed as plain C++20 (never CUDA), against tilecc's own runtime headers. The
  // standard goes last so that a -std from the compile database or after `--` cannot lower it.
  std::vector<std::string> front = {"-xc++", "-D__TILECC__=1", "-I" + opts.runtimeInclude, "-resource-dir",
                                    opts.resourceDir, "-Wno-unused-command-line-argument"};
  std::vector<std::string> back = {"-std=c++20"};
  Factory factory(out, opts.collectDependencies);
  DedupingPrinter diagnostics;
  bool ok = true;
  // One tool per input: ClangTool prints "[i/n] Processing file" for several, and the
  // diagnostics already say what failed.
  // Parsing, Clang's constant evaluator and the lowering recurse on the depth of an expression:
  // a chain of thousands of operators, which C++ compilers accept, needs a deep stack.
  constexpr unsigned kStackBytes = 1u << 30;  // reserved, not committed: pages are touched only when used
  for (const std::string& input : opts.inputs) {
    llvm::thread worker(std::optional<unsigned>(kStackBytes), [&] { ok &= runOne(*db, input, factory, diagnostics, front, back); });
    worker.join();
  }
  return ok;
}

}  // namespace tilecc
