"""The dashboard: real figures, limited to what the user may see."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.views.generic import TemplateView

from apps.memory.models import MemoryStatus
from apps.reports.selectors import SUMMARY_TTL_SECONDS, memory_counts_by_tenant


class DashboardView(LoginRequiredMixin, TemplateView):
    """Memories per status per visible tenant, with totals (aggregates only, never content)."""

    template_name = "reports/dashboard.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["dashboard"] = memory_counts_by_tenant(self.request.user)
        context["statuses"] = MemoryStatus.choices
        context["summary_minutes"] = SUMMARY_TTL_SECONDS // 60
        return context
