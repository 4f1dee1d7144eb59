"""The lab: where the caption model and the content check are trained, evaluated and judged.

Nothing the site runs imports it (the web, the workers, the scheduler); it imports the product's
``generation`` for what both need (the model's format, sampling, the filters). Its commands run
under its own settings, which add it to the product's apps:

    DJANGO_SETTINGS_MODULE=lab.settings python manage.py train_captions --help

It needs ``lab/requirements.txt`` (the site's requirements plus scikit-learn, matplotlib and
tqdm); ``lab/README.md`` says what is here.
"""
