"""Login and logout. Logins and failed logins (here and on /admin/login/) are audited by
the auth signal receivers in apps.access.receivers; django-axes locks out repeated
failures."""

from django.contrib.auth import views as auth_views

from apps.access.services import record_logout


class LoginView(auth_views.LoginView):
    template_name = "access/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        if request.user.is_authenticated:
            record_logout(user=request.user)
        return super().post(request, *args, **kwargs)
